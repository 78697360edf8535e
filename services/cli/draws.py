"""``ledger games offer-draw|accept-draw|decline-draw`` over gRPC.

A seat's own draw offers in a 2-player game, with that seat's token
(``--token``, or ``LEDGER_SEAT_TOKEN``): the offer is made on the seat's own
turn, stands until the opponent accepts, declines or moves, and a seat
offers at most once per move it makes.
"""

from __future__ import annotations

from typing import Any

import typer

from services.cli import locate
from services.cli.failures import USAGE, UserError
from services.cli.games import parse_game_id
from services.cli.root import console, games_app

GAME_ID = typer.Argument(..., metavar="GAME_ID", help="The game's id (a UUID).")
SEAT_TOKEN = typer.Option(
    None,
    "--token",
    metavar="TOKEN",
    envvar="LEDGER_SEAT_TOKEN",
    help="The seat token CreateGame (or GetMyGames) gave the player.",
)
SEAT = typer.Option(
    None, "--seat", min=0, help="Only when the token controls more than one seat."
)


def _call(
    method: str, game_id: str, seat: int | None, token: str | None, target: str | None
) -> Any:
    from ledger.v1 import game_service_pb2 as pb
    from ledger.v1 import game_service_pb2_grpc as rpc

    if not token:
        raise UserError("a draw offer needs the seat's token: pass --token", USAGE)
    request = getattr(pb, f"{method}Request")(game_id=str(parse_game_id(game_id)))
    if seat is not None:
        request.seat = seat
    stub = locate.stub(rpc.GameServiceStub, target)
    return getattr(stub, method)(request, metadata=locate.bearer(token), timeout=30)


@games_app.command("offer-draw")
def offer_draw(
    game_id: str = GAME_ID,
    seat: int | None = SEAT,
    token: str | None = SEAT_TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Offer the opponent a draw (on your own turn)."""
    answer = _call("OfferDraw", game_id, seat, token, target)
    console.print(f"draw offered (version {answer.version})")


@games_app.command("accept-draw")
def accept_draw(
    game_id: str = GAME_ID,
    seat: int | None = SEAT,
    token: str | None = SEAT_TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Accept the opponent's standing draw offer: the game ends drawn."""
    answer = _call("AcceptDraw", game_id, seat, token, target)
    console.print(f"draw agreed: the game is over (version {answer.last_version})")


@games_app.command("decline-draw")
def decline_draw(
    game_id: str = GAME_ID,
    seat: int | None = SEAT,
    token: str | None = SEAT_TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Decline the opponent's standing draw offer."""
    answer = _call("DeclineDraw", game_id, seat, token, target)
    console.print(f"draw offer declined (version {answer.version})")
