"""``ledger games offer-draw|accept-draw|decline-draw`` over gRPC.

A seat's own draw offers in a 2-player game, with that seat's token
(``--token``, or ``LEDGER_SEAT_TOKEN``): the offer is made on the seat's own
turn, stands until the opponent accepts, declines or moves, and a seat
offers at most once per move it makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.cli import locate
from services.cli.failures import USAGE, UserError
from services.cli.games import GAME_ID, parse_game_id
from services.cli.root import console, games_app
from services.cli.seat_option import seat_option

SEAT_TOKEN = locate.token_option(
    "LEDGER_SEAT_TOKEN", "The seat token CreateGame (or GetMyGames) gave the player."
)
SEAT = seat_option("The seat (counted from 1), when the token controls more than one.")


def _call(
    method: str, game_id: str, seat: int | None, token: str | None, target: str | None
) -> Any:
    from ledger.v1 import game_service_pb2 as pb
    from ledger.v1 import game_service_pb2_grpc as rpc

    if not token:
        raise UserError("a draw offer needs the seat's token: pass --token", USAGE)
    request = getattr(pb, f"{method}Request")(game_id=str(parse_game_id(game_id)))
    if seat is not None:
        request.seat = seat - 1  # people count seats from 1, the API from 0
    stub = locate.stub(rpc.GameServiceStub, target)
    return getattr(stub, method)(request, metadata=locate.bearer(token), timeout=30)


def _draw_command(name: str, method: str, doc: str, said: Callable[[Any], str]) -> None:
    """Register ``ledger games NAME``: the seat's ``method`` call, then ``said``."""

    def command(
        game_id: str = GAME_ID,
        seat: int | None = SEAT,
        token: str | None = SEAT_TOKEN,
        target: str | None = locate.TARGET,
    ) -> None:
        console.print(said(_call(method, game_id, seat, token, target)))

    command.__doc__ = doc
    games_app.command(name)(command)


_draw_command(
    "offer-draw",
    "OfferDraw",
    "Offer the opponent a draw (on your own turn).",
    lambda answer: f"draw offered (version {answer.version})",
)
_draw_command(
    "accept-draw",
    "AcceptDraw",
    "Accept the opponent's standing draw offer: the game ends drawn.",
    lambda answer: f"draw agreed: the game is over (version {answer.last_version})",
)
_draw_command(
    "decline-draw",
    "DeclineDraw",
    "Decline the opponent's standing draw offer.",
    lambda answer: f"draw offer declined (version {answer.version})",
)
