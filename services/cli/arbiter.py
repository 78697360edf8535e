"""``ledger arbiter add-time|pause|resume|pause-round|resume-round`` over gRPC.

An arbiter's controls (``ArbiterService``): the admin token, which the local
server keeps in the data dir (or ``LEDGER_ADMIN_TOKEN``), by default; an
organiser passes its tournament's organiser token with ``--token``.  Each
control is an event of the game's log, so a refusal (a game already paused,
a per-move seat not on move) is the server's one line, never a traceback.
"""

from __future__ import annotations

from typing import Any

import typer

from services.cli import locate
from services.cli.games import GAME_ID, parse_game_id
from services.cli.root import console, group
from services.cli.seat_option import seat_option
from services.cli.tournament import TID, TOKEN, organiser, parse_tournament_id

arbiter_app = group(
    "arbiter", "An arbiter's controls: add time, pause and resume games or rounds."
)

ROUND = typer.Option(0, "--round", min=0, help="The round's number (0: the latest).")


def _call(method: str, request: Any, token: str | None, target: str | None) -> Any:
    from ledger.v1 import arbiter_service_pb2_grpc as rpc

    stub = locate.stub(rpc.ArbiterServiceStub, target)
    return getattr(stub, method)(request, metadata=organiser(token, target), timeout=30)


def _said(done: str, answer: Any) -> None:
    console.print(f"{done} (game {answer.game.game_id}, version {answer.version})")


@arbiter_app.command("add-time")
def add_time(
    game_id: str = GAME_ID,
    seat: int = seat_option(
        "The seat given time (counted from 1, as ledger play shows seats).", ...
    ),
    seconds: float = typer.Option(
        ..., "--seconds", min=0.001, help="How much time to add (up to 7 days)."
    ),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Give a seat more time (a Fischer bank, or a per-move seat's current move)."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.AddTimeRequest(
        game_id=str(parse_game_id(game_id)),
        seat=seat - 1,
        added_ms=round(seconds * 1000),
    )
    _said(
        f"gave seat {seat} {seconds:g} s more", _call("AddTime", request, token, target)
    )


def _game_command(name: str, method: str, done: str, doc: str) -> None:
    """Register ``ledger arbiter NAME``: ``method`` on one game."""

    def command(
        game_id: str = GAME_ID,
        token: str | None = TOKEN,
        target: str | None = locate.TARGET,
    ) -> None:
        from ledger.v1 import arbiter_service_pb2 as pb

        request = getattr(pb, f"{method}Request")(game_id=str(parse_game_id(game_id)))
        _said(done, _call(method, request, token, target))

    command.__doc__ = doc
    arbiter_app.command(name)(command)


def _round_command(name: str, method: str, done: str, doc: str) -> None:
    """Register ``ledger arbiter NAME``: ``method`` on every game of a round."""

    def command(
        tournament_id: str = TID,
        number: int = ROUND,
        token: str | None = TOKEN,
        target: str | None = locate.TARGET,
    ) -> None:
        from ledger.v1 import arbiter_service_pb2 as pb

        request = getattr(pb, f"{method}Request")(
            tournament_id=parse_tournament_id(tournament_id), round=number
        )
        _round(done, _call(method, request, token, target))

    command.__doc__ = doc
    arbiter_app.command(name)(command)


def _round(done: str, answer: Any) -> None:
    console.print(
        f"round {answer.round}: {done} {len(answer.changed_game_ids)} games,"
        f" {len(answer.unchanged_game_ids)} unchanged (ended, or already {done})"
    )
    for game_id in answer.changed_game_ids:
        console.print(f"  {done} {game_id}", highlight=False)


_game_command(
    "pause",
    "PauseGame",
    "paused",
    "Hold every clock of a game; no seat may move until it resumes.",
)
_game_command(
    "resume",
    "ResumeGame",
    "resumed",
    "Let a paused game's clocks run again from where they stood.",
)
_round_command(
    "pause-round",
    "PauseRound",
    "paused",
    "Pause every running game of a tournament round.",
)
_round_command(
    "resume-round",
    "ResumeRound",
    "resumed",
    "Resume every paused game of a tournament round.",
)
