"""An arbiter's controls and draw offers through the real server.

The server runs on the session ledger with a clock the test moves by hand and
without its own timekeeper; the timekeeper here is another server's
(:class:`Timekeeper` on a second ledger over the same database, on the same
clock), so a pause is seen to hold across servers.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime
from typing import Any

import grpc
import pytest

from ledger.v1 import arbiter_service_pb2 as apb
from ledger.v1 import arbiter_service_pb2_grpc as apb_grpc
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1.read_service_pb2_grpc import ReplayServiceStub
from services.ledger.audit import audit_game
from services.ledger.timekeeper import Timekeeper
from tests.e2e.test_referee_over_grpc import (
    _cup,
    game_of,
    new_game,
    refusal,
)
from tests.support.manual_clock import ManualClock


def arbiter(server: Any, method: str, request: Any, token: str | None) -> Any:
    stub = apb_grpc.ArbiterServiceStub(server.channel)
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    return getattr(stub, method)(request, metadata=metadata, timeout=30)


def ms(at: datetime) -> int:
    return int(at.timestamp() * 1000)


def deadline_of(game: Any, seat: int) -> int:
    clock = next(c for c in game.clocks if c.seat == seat)
    return int(clock.deadline.ToMilliseconds()) if clock.HasField("deadline") else 0


def sweep(ledger: Any) -> int:
    return asyncio.run(Timekeeper(ledger).sweep())


def test_a_paused_game_is_never_flagged_and_resumes_where_it_stood(
    server: Any, ledger: Any, other_server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="per_move", per_move_seconds=30)
    admin = server.admin_token
    legal = pb.ListLegalMovesRequest(game_id=table.game_id, seat=0, page_size=1)
    move = server.call("ListLegalMoves", legal, table.tokens[0]).moves[0]
    clock.advance(10)
    paused = arbiter(
        server, "PauseGame", apb.PauseGameRequest(game_id=table.game_id), admin
    )
    assert paused.event.type == "ledger.GamePaused"
    control = pb.GameControl()
    paused.event.payload.Unpack(control)
    assert (control.kind, control.by) == ("paused", "admin")
    game = game_of(server, table)
    assert game.paused and not game.HasField("next_deadline")
    assert all(
        c.paused and not c.running and c.remaining_ms == 20_000 for c in game.clocks
    )
    # no seat may move while paused, so none is offered a move
    offered = server.call("ListLegalMoves", legal, table.tokens[0])
    assert (list(offered.moves), offered.total_size) == ([], 0)
    with pytest.raises(grpc.RpcError) as refused:
        move_request = pb.SubmitMoveRequest(
            game_id=table.game_id, command_id=str(uuid.uuid4()), seat=0
        )
        move_request.move.CopyFrom(move)
        server.call("SubmitMove", move_request, table.tokens[0])
    code, info, _ = refusal(refused.value)
    assert (code, info["rule"]) == (grpc.StatusCode.FAILED_PRECONDITION, "game.paused")
    clock.advance(600)  # long past every deadline the game had
    sweep(other_server)
    assert not game_of(server, table).HasField("outcome")
    with pytest.raises(grpc.RpcError) as not_due:
        server.call("ClaimTimeout", pb.ClaimTimeoutRequest(game_id=table.game_id))
    assert refusal(not_due.value)[1]["rule"] == "clock.running"
    with pytest.raises(grpc.RpcError) as twice:
        arbiter(server, "PauseGame", apb.PauseGameRequest(game_id=table.game_id), admin)
    assert refusal(twice.value)[1]["rule"] == "game.already-paused"

    arbiter(server, "ResumeGame", apb.ResumeGameRequest(game_id=table.game_id), admin)
    resumed_at = ms(clock.now)
    game = game_of(server, table)
    assert not game.paused
    # 10 s of the 30 were spent before the pause: 20 s are left
    assert deadline_of(game, 0) == deadline_of(game, 1) == resumed_at + 20_000

    added = arbiter(
        server,
        "AddTime",
        apb.AddTimeRequest(game_id=table.game_id, seat=0, added_ms=15_000),
        admin,
    )
    assert deadline_of(added.game, 0) == resumed_at + 35_000
    assert deadline_of(added.game, 1) == resumed_at + 20_000
    clock.advance(19)
    sweep(other_server)
    assert not game_of(server, table).HasField("outcome")
    clock.advance(2)
    sweep(other_server)
    game = game_of(server, table)
    assert game.outcome.termination_kind == pb.TERMINATION_TIMED_OUT
    assert list(game.outcome.winners) == [0]  # seat 0 had the added time
    report = audit_game(ledger, uuid.UUID(table.game_id))
    assert report.ok, report.failures


def test_players_draw_by_agreement_and_only_players_offer(
    server: Any, ledger: Any
) -> None:
    table, other = new_game(server), new_game(server)
    offer = pb.OfferDrawRequest(game_id=table.game_id)
    for token, code in (
        (None, grpc.StatusCode.UNAUTHENTICATED),  # a spectator
        (other.tokens[0], grpc.StatusCode.PERMISSION_DENIED),
        (server.admin_token, grpc.StatusCode.PERMISSION_DENIED),
    ):
        with pytest.raises(grpc.RpcError) as refused:
            server.call("OfferDraw", offer, token)
        assert refused.value.code() == code
    offered = server.call("OfferDraw", offer, table.tokens[0])
    assert offered.event.type == "ledger.DrawOffered" and offered.event.actor == 0
    assert offered.game.draw_offered_by == 0
    with pytest.raises(grpc.RpcError) as own:
        server.call(
            "AcceptDraw", pb.AcceptDrawRequest(game_id=table.game_id), table.tokens[0]
        )
    assert refusal(own.value)[1]["rule"] == "draw.own-offer"
    declined = server.call(
        "DeclineDraw", pb.DeclineDrawRequest(game_id=table.game_id), table.tokens[1]
    )
    assert declined.event.type == "ledger.DrawDeclined"
    assert not declined.game.HasField("draw_offered_by")
    with pytest.raises(grpc.RpcError) as again:
        server.call("OfferDraw", offer, table.tokens[0])
    assert refusal(again.value)[1]["rule"] == "draw.offer-once-per-move"

    server.call("OfferDraw", offer, table.tokens[1])
    ended = server.call(
        "AcceptDraw", pb.AcceptDrawRequest(game_id=table.game_id), table.tokens[0]
    )
    assert [e.type for e in ended.events] == [
        "ledger.DrawAgreed",
        "ledger.GameConcluded",
    ]
    ending = pb.GameEnded()
    ended.events[0].payload.Unpack(ending)
    assert (ending.kind, ending.seat, ending.by) == ("agreed", 0, "seat:0")
    assert ended.game.outcome.termination_kind == pb.TERMINATION_AGREED
    assert list(ended.game.outcome.ranks) == [1, 1]
    report = audit_game(ledger, uuid.UUID(table.game_id))
    assert report.ok, report.failures
    # a spectator's stream and replay show every control: nothing in them is hidden
    streamed = [
        e.type
        for e in server.stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
            timeout=30,
        )
    ]
    assert [t for t in streamed if t.startswith("ledger.Draw")] == [
        "ledger.DrawOffered",
        "ledger.DrawDeclined",
        "ledger.DrawOffered",
        "ledger.DrawAgreed",
    ]
    frames = ReplayServiceStub(server.channel).ListFrames(
        rpb.ListFramesRequest(game_id=table.game_id, page_size=100), timeout=30
    )
    assert [f.event.type for f in frames.frames] == streamed


def test_only_the_admin_and_the_games_organiser_are_arbiters(server: Any) -> None:
    mine, my_game = _cup(server, "arb-a")
    theirs, their_game = _cup(server, "arb-b")
    table = new_game(server, kind="fischer", base_seconds=60)
    pause = apb.PauseGameRequest(game_id=table.game_id)
    add = apb.AddTimeRequest(game_id=table.game_id, seat=0, added_ms=5_000)
    for method, request in (("PauseGame", pause), ("AddTime", add)):
        with pytest.raises(grpc.RpcError) as player:
            arbiter(server, method, request, table.tokens[0])
        code, info, _ = refusal(player.value)
        assert (code, info["reason"]) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "ARBITER_ONLY",
        )
        with pytest.raises(grpc.RpcError) as nobody:
            arbiter(server, method, request, None)
        assert nobody.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as elsewhere:
        arbiter(server, "PauseGame", apb.PauseGameRequest(game_id=their_game), mine)
    assert refusal(elsewhere.value)[1]["reason"] == "NOT_YOUR_TOURNAMENT"
    with pytest.raises(grpc.RpcError) as bad:
        arbiter(
            server,
            "AddTime",
            apb.AddTimeRequest(game_id=table.game_id, seat=0, added_ms=0),
            server.admin_token,
        )
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    summary = arbiter(server, "PauseGame", apb.PauseGameRequest(game_id=my_game), mine)
    control = pb.GameControl()
    summary.event.payload.Unpack(control)
    assert control.by.startswith("organiser:")
    tid = control.by.removeprefix("organiser:")
    round_pause = apb.PauseRoundRequest(tournament_id=tid)
    with pytest.raises(grpc.RpcError) as not_theirs:
        arbiter(server, "PauseRound", round_pause, theirs)
    assert not_theirs.value.code() == grpc.StatusCode.PERMISSION_DENIED
    again = arbiter(server, "PauseRound", round_pause, mine)
    assert (again.round, list(again.changed_game_ids)) == (1, [])
    assert list(again.unchanged_game_ids) == [my_game]
    resumed = arbiter(
        server, "ResumeRound", apb.ResumeRoundRequest(tournament_id=tid), mine
    )
    assert list(resumed.changed_game_ids) == [my_game]
    with pytest.raises(grpc.RpcError) as no_round:
        arbiter(
            server,
            "PauseRound",
            apb.PauseRoundRequest(tournament_id=tid, round=7),
            mine,
        )
    assert no_round.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_the_cli_pauses_adds_time_resumes_and_draws(
    server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from services.cli import app

    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    target = ("--target", f"127.0.0.1:{server.port}")
    admin = ("--token", server.admin_token)
    table = new_game(server, kind="fischer", base_seconds=60)

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, list(args))

    paused = run("arbiter", "pause", table.game_id, *target, *admin)
    assert paused.exit_code == 0, paused.output
    assert paused.output.startswith(f"paused (game {table.game_id}, version ")
    shown = run("games", "show", table.game_id)
    assert "paused by the arbiter: no seat may move until it resumes" in shown.output
    assert "(running)" not in shown.output
    again = run("arbiter", "pause", table.game_id, *target, *admin)
    assert again.exit_code != 0 and "already paused" in again.output
    assert "Traceback" not in again.output and len(again.output.splitlines()) == 1
    player = run("arbiter", "pause", table.game_id, *target, "--token", table.tokens[0])
    assert player.exit_code != 0 and "admin or the game's tournament" in player.output
    added = run(
        "arbiter", "add-time", table.game_id, "--seat", "2", "--seconds", "30",
        *target, *admin,
    )  # fmt: skip
    assert added.exit_code == 0 and "gave seat 2 30 s more" in added.output
    assert game_of(server, table).clocks[1].remaining_ms == 90_000
    assert run("arbiter", "resume", table.game_id, *target, *admin).exit_code == 0
    offered = run(
        "games", "offer-draw", table.game_id, *target, "--token", table.tokens[1]
    )
    assert offered.exit_code == 0, offered.output
    assert "draw offered by seat 2" in run("games", "show", table.game_id).output
    accepted = run(
        "games", "accept-draw", table.game_id, *target, "--token", table.tokens[0]
    )
    assert accepted.exit_code == 0 and "draw agreed" in accepted.output
    assert game_of(server, table).outcome.termination == "agreed"
