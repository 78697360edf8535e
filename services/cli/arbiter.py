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
from services.cli.games import parse_game_id
from services.cli.root import console, group
from services.cli.tournament import parse_tournament_id

arbiter_app = group(
    "arbiter", "An arbiter's controls: add time, pause and resume games or rounds."
)

GAME_ID = typer.Argument(..., metavar="GAME_ID", help="The game's id (a UUID).")
TID = typer.Argument(..., metavar="TOURNAMENT_ID", help="The tournament's id.")
ROUND = typer.Option(0, "--round", min=0, help="The round's number (0: the latest).")
TOKEN = typer.Option(
    None,
    "--token",
    metavar="TOKEN",
    envvar="LEDGER_ORGANISER_TOKEN",
    help="The tournament's organiser token (default: the admin token from the "
    "data dir, to a server on this machine).",
)


def _call(method: str, request: Any, token: str | None, target: str | None) -> Any:
    from ledger.v1 import arbiter_service_pb2_grpc as rpc

    stub = locate.stub(rpc.ArbiterServiceStub, target)
    metadata = locate.bearer(token or locate.admin_token(target=target))
    return getattr(stub, method)(request, metadata=metadata, timeout=30)


def _said(done: str, answer: Any) -> None:
    console.print(f"{done} (game {answer.game.game_id}, version {answer.version})")


@arbiter_app.command("add-time")
def add_time(
    game_id: str = GAME_ID,
    seat: int = typer.Option(..., "--seat", min=0, help="The seat given time."),
    seconds: float = typer.Option(
        ..., "--seconds", min=0.001, help="How much time to add (up to 7 days)."
    ),
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Give a seat more time (a Fischer bank, or a per-move seat's current move)."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.AddTimeRequest(
        game_id=str(parse_game_id(game_id)), seat=seat, added_ms=round(seconds * 1000)
    )
    _said(
        f"gave seat {seat} {seconds:g} s more", _call("AddTime", request, token, target)
    )


@arbiter_app.command("pause")
def pause(
    game_id: str = GAME_ID,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Hold every clock of a game; no seat may move until it resumes."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.PauseGameRequest(game_id=str(parse_game_id(game_id)))
    _said("paused", _call("PauseGame", request, token, target))


@arbiter_app.command("resume")
def resume(
    game_id: str = GAME_ID,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Let a paused game's clocks run again from where they stood."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.ResumeGameRequest(game_id=str(parse_game_id(game_id)))
    _said("resumed", _call("ResumeGame", request, token, target))


@arbiter_app.command("pause-round")
def pause_round(
    tournament_id: str = TID,
    number: int = ROUND,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Pause every running game of a tournament round."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.PauseRoundRequest(
        tournament_id=parse_tournament_id(tournament_id), round=number
    )
    _round("paused", _call("PauseRound", request, token, target))


@arbiter_app.command("resume-round")
def resume_round(
    tournament_id: str = TID,
    number: int = ROUND,
    token: str | None = TOKEN,
    target: str | None = locate.TARGET,
) -> None:
    """Resume every paused game of a tournament round."""
    from ledger.v1 import arbiter_service_pb2 as pb

    request = pb.ResumeRoundRequest(
        tournament_id=parse_tournament_id(tournament_id), round=number
    )
    _round("resumed", _call("ResumeRound", request, token, target))


def _round(done: str, answer: Any) -> None:
    console.print(
        f"round {answer.round}: {done} {len(answer.changed_game_ids)} games,"
        f" {len(answer.unchanged_game_ids)} unchanged (ended, or already {done})"
    )
    for game_id in answer.changed_game_ids:
        console.print(f"  {done} {game_id}", highlight=False)
