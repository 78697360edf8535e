"""``ledger games resign|abort|claim-timeout``: a game's endings from a terminal.

Why through the public API and not the database: these are decisions, and
the server is where the referee checks who may take them (a seat resigns
only for itself; an abort comes from a seat, the admin or the game's
tournament organiser) and records the ending in the game's log.  The same
calls any client makes, with the same refusals, each shown on one line
(``clock.flagged``: the deadline had passed, and the timeout it means was
recorded instead).
"""

from __future__ import annotations

from typing import Any

import typer

from services.cli import locate
from services.cli.failures import USAGE, UserError
from services.cli.games import GAME_ID, parse_game_id
from services.cli.root import console, games_app
from services.cli.seat_option import seat_option

TOKEN = locate.token_option(
    "LEDGER_PLAYER_TOKEN",
    "Your seat token (for abort also an organiser's token). Default for "
    "abort and claim-timeout: the admin token of the local server.",
)

WRITTEN_REASONS = ("aborted", "adjudicated")
"""Endings whose reason a person wrote (shown as written)."""


def _say(text: str) -> None:
    console.print(text, highlight=False, soft_wrap=True, markup=False)


def _game_id(raw: str) -> str:
    return str(parse_game_id(raw))


def _seats(seats: Any) -> str:
    """Seats counted from 1, as ``ledger play`` shows them."""
    return ", ".join(f"seat {s + 1}" for s in seats) or "none"


def ended_line(response: Any) -> str:
    """One line for an ``EndGameResponse``: how the game ended and who won.

    Seats are counted from 1, as ``ledger play`` shows them; a reason is
    shown only when a person wrote it (an abort's, an adjudication's), since
    the ledger's own reasons count seats from 0.

    >>> from ledger.v1 import game_service_pb2 as pb
    >>> game = pb.GameSummary(game_id="g1", outcome=pb.Outcome(
    ...     termination="forfeited", winners=[], absent_seats=[0, 1],
    ...     reason="no seat showed up (seats 0, 1)"))
    >>> ended_line(pb.EndGameResponse(game=game))
    'game g1 ended: forfeited; winners: none; absent: seat 1, seat 2'
    """
    game = response.game
    if not game.HasField("outcome"):
        return f"game {game.game_id}: a seat left; the others play on"
    outcome = game.outcome
    line = f"game {game.game_id} ended: {outcome.termination}"
    if outcome.reason and outcome.termination in WRITTEN_REASONS:
        line += f" ({outcome.reason})"
    line += f"; winners: {_seats(outcome.winners)}"
    if outcome.absent_seats:
        line += f"; absent: {_seats(outcome.absent_seats)}"
    return line


def _call(method: str, request: Any, token: str | None, target: str | None) -> None:
    conn = locate.connect(target)
    _say(ended_line(conn.call(method, request, token)))


@games_app.command("resign")
def resign(
    game_id: str = GAME_ID,
    token: str | None = TOKEN,
    seat: int | None = seat_option(
        "The seat that resigns (counted from 1), when the token holds several."
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Resign your seat: the others win.

    A seat that leaves a game of three or more drops out; the others play on.
    """
    from ledger.v1 import game_service_pb2 as pb

    if not token:
        raise UserError("resign needs your seat token: --token TOKEN", USAGE)
    request = pb.ResignRequest(game_id=_game_id(game_id))
    if seat is not None:
        request.seat = seat - 1
    _call("Resign", request, token, target)


@games_app.command("abort")
def abort(
    game_id: str = GAME_ID,
    reason: str = typer.Option(
        "", "--reason", metavar="TEXT", help="Why (at most 500 characters)."
    ),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Call a game off before its first moves.

    Unrated; in a tournament it is not scored, and the organiser replays or
    reschedules it.  Refused once a deadline has passed (that timeout is
    recorded instead) or, for a seat, once a seat has left.
    """
    from ledger.v1 import game_service_pb2 as pb

    request = pb.AbortRequest(game_id=_game_id(game_id), reason=reason)
    _call("Abort", request, token or locate.admin_token(target=target), target)


@games_app.command("claim-timeout")
def claim_timeout(
    game_id: str = GAME_ID,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Record the timeout, or no-show forfeit, of a seat whose time ran out."""
    from ledger.v1 import game_service_pb2 as pb

    request = pb.ClaimTimeoutRequest(game_id=_game_id(game_id))
    _call("ClaimTimeout", request, token or locate.admin_token(target=target), target)
