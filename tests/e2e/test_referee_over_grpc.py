"""Resign, Abort, Adjudicate, ClaimTimeout and clocks through the real server.

The server runs on the session ledger with a clock the test moves by hand,
and without its timekeeper (``timekeeper_interval=0``), so each timeout here
is recorded by the call the test makes, never by a sweep racing it.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as tpb_grpc
from services.api.client import Table, legal_moves
from services.proto import convert
from tests.support.manual_clock import ManualClock

THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def new_game(server: Any, **control: Any) -> Table:
    request = pb.CreateGameRequest(
        game_type="thalara",
        setup=convert.model_to_any(THALARA, THALARA.setup_model(**SETUP)),
    )
    if control:
        request.time_control.CopyFrom(pb.TimeControl(**control))
    response = server.call("CreateGame", request)
    tokens = {seat: t.token for t in response.tokens for seat in t.seats}
    return Table(response.game.game_id, tokens, response)


def move(server: Any, table: Table, seat: int) -> Any:
    choice = legal_moves(server, table, seat, limit=5)
    return server.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id,
            command_id=str(uuid.uuid4()),
            move=random.Random(seat).choice(choice),
            seat=seat,
        ),
        table.tokens[seat],
    )


def refusal(exc: grpc.RpcError) -> tuple[grpc.StatusCode, dict[str, str], Any]:
    status: status_pb2.Status | None = rpc_status.from_call(exc)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    bad = error_details_pb2.BadRequest()
    for detail in status.details:
        if detail.Is(info.DESCRIPTOR):
            detail.Unpack(info)
        if detail.Is(bad.DESCRIPTOR):
            detail.Unpack(bad)
    return exc.code(), {"reason": info.reason, **info.metadata}, bad


def game_of(server: Any, table: Table) -> Any:
    return server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game


def test_get_game_shows_each_seats_clock_and_the_next_deadline(
    server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="fischer", base_seconds=300, increment_seconds=5)
    clock.advance(7)
    game = game_of(server, table)
    assert game.time_control.kind == "fischer"
    assert [c.seat for c in game.clocks] == [0, 1]
    assert all(c.running and c.remaining_ms == 293_000 for c in game.clocks)
    assert game.HasField("next_deadline") and game.next_deadline_seat == 0
    assert game.clock_read_at.ToDatetime().timestamp() == pytest.approx(
        clock.now.timestamp()
    )


def test_a_seat_resigns_for_itself_only(server: Any) -> None:
    table, other = new_game(server), new_game(server)
    for token, code in (
        (None, grpc.StatusCode.UNAUTHENTICATED),
        (other.tokens[0], grpc.StatusCode.PERMISSION_DENIED),
        (server.admin_token, grpc.StatusCode.PERMISSION_DENIED),
    ):
        with pytest.raises(grpc.RpcError) as refused:
            server.call("Resign", pb.ResignRequest(game_id=table.game_id), token)
        assert refused.value.code() == code
    with pytest.raises(grpc.RpcError) as refused:
        server.call(
            "Resign", pb.ResignRequest(game_id=table.game_id, seat=1), table.tokens[0]
        )
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    ended = server.call(
        "Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[0]
    )
    assert [e.type for e in ended.events] == [
        "ledger.SeatResigned",
        "ledger.GameConcluded",
    ]
    ending = pb.GameEnded()
    ended.events[0].payload.Unpack(ending)
    assert (ending.kind, ending.seat, ending.by) == ("resigned", 0, "seat:0")
    assert ended.game.outcome.termination_kind == pb.TERMINATION_RESIGNED
    assert list(ended.game.outcome.winners) == [1]
    with pytest.raises(grpc.RpcError) as again:
        server.call("Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[1])
    code, info, _ = refusal(again.value)
    assert (code, info["rule"]) == (grpc.StatusCode.FAILED_PRECONDITION, "game-over")


def test_abort_only_early_and_only_by_who_may(server: Any) -> None:
    table = new_game(server)
    with pytest.raises(grpc.RpcError) as refused:
        server.call("Abort", pb.AbortRequest(game_id=table.game_id))
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    late = new_game(server)
    move(server, late, 0)
    move(server, late, 1)
    with pytest.raises(grpc.RpcError) as too_late:
        server.call("Abort", pb.AbortRequest(game_id=late.game_id), server.admin_token)
    code, info, _ = refusal(too_late.value)
    assert (code, info["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "referee.abort-too-late",
    )
    ended = server.call(
        "Abort",
        pb.AbortRequest(game_id=table.game_id, reason="wrong table"),
        table.tokens[1],
    )
    assert ended.game.outcome.termination == "aborted"
    assert list(ended.game.outcome.winners) == []


def test_adjudication_by_the_admin_with_ranks_and_a_reason(server: Any) -> None:
    table = new_game(server)
    with pytest.raises(grpc.RpcError) as seat_tries:
        server.call(
            "Adjudicate",
            pb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="mine"),
            table.tokens[0],
        )
    assert seat_tries.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as malformed:
        server.call(
            "Adjudicate",
            pb.AdjudicateRequest(game_id=table.game_id, ranks=[2, 2], reason="x"),
            server.admin_token,
        )
    code, _, bad = refusal(malformed.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in bad.field_violations] == ["ranks"]
    with pytest.raises(grpc.RpcError) as long_reason:
        server.call(
            "Adjudicate",
            pb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="x" * 501),
            server.admin_token,
        )
    assert long_reason.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    ended = server.call(
        "Adjudicate",
        pb.AdjudicateRequest(game_id=table.game_id, ranks=[2, 1], reason="no-show"),
        server.admin_token,
    )
    assert ended.game.outcome.termination_kind == pb.TERMINATION_ADJUDICATED
    assert ended.game.outcome.reason == "no-show"
    assert list(ended.game.outcome.winners) == [1]


def test_a_move_after_the_deadline_is_refused_as_flagged(
    server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="per_move", per_move_seconds=30)
    with pytest.raises(grpc.RpcError) as early:
        server.call("ClaimTimeout", pb.ClaimTimeoutRequest(game_id=table.game_id))
    code, info, _ = refusal(early.value)
    assert (code, info["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "clock.running",
    )
    clock.advance(31)
    with pytest.raises(grpc.RpcError) as late:
        move(server, table, 0)
    code, info, _ = refusal(late.value)
    assert (code, info["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "clock.flagged",
    )
    game = game_of(server, table)
    assert game.outcome.termination_kind == pb.TERMINATION_TIMED_OUT
    assert not game.HasField("next_deadline")


def test_a_bad_time_control_is_refused_with_the_field(server: Any) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        new_game(server, kind="fischer")
    code, _, bad = refusal(refused.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in bad.field_violations] == ["time_control"]
    with pytest.raises(grpc.RpcError) as unknown:
        new_game(server, kind="hourglass", per_move_seconds=3)
    assert unknown.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def _cup(server: Any, name: str) -> tuple[str, str]:
    """A started two-player tournament: (its organiser token, its one game)."""
    cups = tpb_grpc.TournamentServiceStub(server.channel)
    organiser = cups.IssueOrganiserToken(
        tpb.IssueOrganiserTokenRequest(label=name),
        metadata=(("authorization", f"Bearer {server.admin_token}"),),
    ).organiser_token
    cup = cups.CreateTournament(
        tpb.CreateTournamentRequest(
            name=name, game_type="vaalbara", format="round_robin", rounds=1
        ),
        metadata=(("authorization", f"Bearer {organiser}"),),
    )
    auth = (("authorization", f"Bearer {cup.organiser_token}"),)
    tid = cup.tournament.tournament_id
    for player in ("ann", "bob"):
        cups.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=f"{name}-{player}"),
            metadata=auth,
        )
    round_ = cups.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth)
    return cup.organiser_token, round_.tables[0].game_id


def test_an_organiser_adjudicates_only_its_own_tournaments_games(server: Any) -> None:
    mine, my_game = _cup(server, "club-a")
    theirs, their_game = _cup(server, "club-b")
    request = pb.AdjudicateRequest(game_id=their_game, ranks=[1, 2], reason="no-show")
    with pytest.raises(grpc.RpcError) as refused:
        server.call("Adjudicate", request, mine)
    code, info, _ = refusal(refused.value)
    assert (code, info["reason"]) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_TOURNAMENT",
    )
    with pytest.raises(grpc.RpcError) as not_in_a_cup:
        server.call(
            "Adjudicate",
            pb.AdjudicateRequest(
                game_id=new_game(server).game_id, ranks=[1, 2], reason="x"
            ),
            mine,
        )
    assert not_in_a_cup.value.code() == grpc.StatusCode.PERMISSION_DENIED
    ended = server.call(
        "Adjudicate",
        pb.AdjudicateRequest(game_id=my_game, ranks=[1, 2], reason="no-show"),
        mine,
    )
    assert ended.game.outcome.termination == "adjudicated"
    ending = pb.GameEnded()
    ended.events[0].payload.Unpack(ending)
    assert ending.by.startswith("organiser:")
    assert theirs


def test_a_tournaments_time_control_reaches_every_game(server: Any) -> None:
    cups = tpb_grpc.TournamentServiceStub(server.channel)
    admin = (("authorization", f"Bearer {server.admin_token}"),)
    cup = cups.CreateTournament(
        tpb.CreateTournamentRequest(
            name="clocked",
            game_type="vaalbara",
            format="round_robin",
            time_control=pb.TimeControl(
                kind="correspondence", days_per_move=3, no_show_seconds=86_400
            ),
        ),
        metadata=admin,
    )
    assert cup.tournament.time_control.days_per_move == 3
    auth = (("authorization", f"Bearer {cup.organiser_token}"),)
    tid = cup.tournament.tournament_id
    for player in ("cc-ann", "cc-bob"):
        cups.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=player),
            metadata=auth,
        )
    round_ = cups.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth)
    game = server.call(
        "GetGame", pb.GetGameRequest(game_id=round_.tables[0].game_id)
    ).game
    assert game.time_control.kind == "correspondence"
    assert game.time_control.no_show_seconds == 86_400
    assert any(c.running for c in game.clocks)
    standings = cups.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
    assert all(r.forfeit_wins == r.forfeit_losses == 0 for r in standings.rows)


def test_replay_frames_show_the_clocks_the_audit_rederives(
    server: Any, clock: ManualClock
) -> None:
    from domain.audit.chain import AuditRow
    from domain.audit.endings import ClockTrail, is_ending
    from domain.ledger.clocks import remaining
    from domain.ledger.records import load
    from ledger.v1 import read_service_pb2 as rpb
    from ledger.v1 import read_service_pb2_grpc as rpb_grpc

    table = new_game(server, kind="fischer", base_seconds=120, increment_seconds=3)
    for step in range(4):
        clock.advance(4 + step)
        move(server, table, game_of(server, table).to_act[0])
    clock.advance(9)
    server.call("Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[1])
    replay = rpb_grpc.ReplayServiceStub(server.channel)
    frames = replay.ListFrames(
        rpb.ListFramesRequest(game_id=table.game_id, page_size=500)
    ).frames
    rows = replay.ExportGame(
        rpb.ExportGameRequest(game_id=table.game_id),
        metadata=(("authorization", f"Bearer {server.admin_token}"),),
    )
    records = [load(c.line.encode()) for c in rows]
    events = [r for r in records if r["kind"] == "event"]
    assert len(events) == len(frames)
    ruleset = THALARA
    trail = ClockTrail(events[0]["record"]["body"], 2)
    state = ruleset.initial_state(
        ruleset.setup_model.model_validate(events[0]["record"]["body"]["setup"])
    )
    from domain.ledger.records import decode_payload

    shown = []
    for item, frame in zip(events, frames):
        row = AuditRow(item["version"], item["type"], item["record"])
        if row.type == "ledger.GameCreated":
            pass
        elif is_ending(row) or row.type == "ledger.GameConcluded":
            trail.stop(row)
        else:
            payload = decode_payload(row.type, row.body, ruleset)
            state = trail.follow(ruleset, state, row, payload)
        at = int(frame.event.timestamp.ToDatetime().timestamp() * 1000)
        assert trail.clock is not None
        expected = list(remaining(trail.clock, trail.control, at))
        assert [c.remaining_ms for c in frame.clocks] == expected
        shown.append(expected)
    assert shown[-1] != shown[1]  # the clocks moved


def test_stats_filter_by_termination_and_leave_aborted_games_out(server: Any) -> None:
    from ledger.v1 import read_service_pb2 as rpb
    from ledger.v1 import read_service_pb2_grpc as rpb_grpc
    from services.api.client import create, play_to_end

    stats = rpb_grpc.StatsServiceStub(server.channel)

    def read(termination: str = "", written: tuple[str, str] = ("", "")) -> Any:
        """The statistics once they include ``written`` (the read token of a
        write, and the seat token that made it)."""
        token, caller = written
        return stats.GetGameTypeStats(
            rpb.GetGameTypeStatsRequest(
                game_type="vaalbara", termination=termination, min_read_token=token
            ),
            metadata=(("authorization", f"Bearer {caller}"),) if caller else None,
            timeout=60,
        )

    def ended(answer: Any) -> dict[str, int]:
        return {t.termination: t.games for t in answer.by_termination}

    completed = create(server, "vaalbara", players=2)
    play_to_end(server, completed, seed=3)
    resigned, aborted = (
        create(server, "vaalbara", players=2),
        create(server, "vaalbara", players=2),
    )
    written = server.call(
        "Resign", pb.ResignRequest(game_id=resigned.game_id), resigned.tokens[0]
    ).read_token
    before = read(written=(written, resigned.tokens[0]))
    written = server.call(
        "Abort", pb.AbortRequest(game_id=aborted.game_id), aborted.tokens[0]
    ).read_token
    again = create(server, "vaalbara", players=2)
    written = server.call(
        "Resign", pb.ResignRequest(game_id=again.game_id), again.tokens[1]
    ).read_token
    last = (written, again.tokens[1])
    after, only_resigned = read(written=last), read("resigned", last)
    assert ended(after)["aborted"] == ended(before).get("aborted", 0) + 1
    assert ended(after)["resigned"] == ended(before)["resigned"] + 1
    assert after.finished == before.finished + 1  # the aborted game is not counted
    assert only_resigned.finished == ended(after)["resigned"]
    assert only_resigned.finished < after.finished  # completed games filtered out
    assert read("completed", last).finished == ended(after)["completed"]
    with pytest.raises(grpc.RpcError) as unknown:
        read("gave_up")
    code, _, bad = refusal(unknown.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in bad.field_violations] == ["termination"]
    from typer.testing import CliRunner

    from services.cli import app

    target = f"127.0.0.1:{server.port}"
    shown = CliRunner().invoke(
        app, ["stats", "vaalbara", "--termination", "resigned", "--target", target]
    )
    assert shown.exit_code == 0, shown.output
    assert f"{only_resigned.finished} finished (resigned)" in shown.stdout
    assert "ended: " in shown.stdout and "aborted" in shown.stdout
    wrong = CliRunner().invoke(
        app, ["stats", "vaalbara", "--termination", "gave_up", "--target", target]
    )
    assert wrong.exit_code != 0 and "Traceback" not in wrong.output
    assert "termination must be one of" in wrong.output


def test_the_stream_shows_the_clocks_after_the_head_event(
    server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="per_move", per_move_seconds=90)
    clock.advance(10)
    move(server, table, game_of(server, table).to_act[0])
    events = list(
        server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
        )
    )
    *before, last = events
    assert all(not e.clocks for e in before)
    assert [c.seat for c in last.clocks] == [0, 1]
    assert last.HasField("next_deadline")
    game = game_of(server, table)
    assert last.next_deadline == game.next_deadline
    assert last.next_deadline_seat == game.next_deadline_seat


def test_a_delayed_spectator_sees_the_clocks_of_the_delayed_version_only(
    server: Any, clock: ManualClock
) -> None:
    request = pb.CreateGameRequest(
        game_type="thalara",
        setup=convert.model_to_any(THALARA, THALARA.setup_model(**SETUP)),
        spectator_delay=pb.SpectatorDelay(moves=1),
        time_control=pb.TimeControl(kind="per_move", per_move_seconds=120),
    )
    response = server.call("CreateGame", request)
    table = Table(
        response.game.game_id,
        {seat: t.token for t in response.tokens for seat in t.seats},
        response,
    )
    created_at = clock.now
    clock.advance(30)
    move(server, table, 0)  # hidden from spectators for one move
    clock.advance(30)
    seen = game_of(server, table)  # no token: a spectator
    player = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    assert seen.version < player.version
    # read at the delayed version's last event: nothing about the hidden move
    assert seen.clock_read_at.ToDatetime().timestamp() <= created_at.timestamp()
    assert [c.remaining_ms for c in seen.clocks] == [120_000, 120_000]
    assert player.clock_read_at.ToDatetime().timestamp() == clock.now.timestamp()
    events = list(
        server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
        )
    )
    assert all(not e.clocks for e in events)  # never the head's, while delayed


def test_in_a_three_player_game_a_resigning_seat_drops_out_and_the_last_one_wins(
    server: Any,
) -> None:
    request = pb.CreateGameRequest(
        game_type="thalara",
        setup=convert.model_to_any(
            THALARA, THALARA.setup_model(**THALARA.example("thalara-3p").setup)
        ),
    )
    response = server.call("CreateGame", request)
    table = Table(
        response.game.game_id,
        {seat: t.token for t in response.tokens for seat in t.seats},
        response,
    )
    dropped = server.call(
        "Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[2]
    )
    types = [e.type for e in dropped.events]
    assert types[0] == "ledger.SeatResigned"
    assert "ledger.GameConcluded" not in types
    assert [e.actor for e in dropped.events[1:]] == [2] * (len(types) - 1)
    assert len(types) > 1  # the ledger selected the dropped seat's hand
    assert list(dropped.game.dropped_seats) == [2]
    assert dropped.game.status == "active"
    assert 2 not in dropped.game.to_act
    with pytest.raises(grpc.RpcError) as refused:
        server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id=str(uuid.uuid4()),
                move=legal_moves(server, table, 0, limit=1)[0],
                seat=2,
            ),
            table.tokens[2],
        )
    code, info, _ = refusal(refused.value)
    assert (code, info["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "seat.dropped-out",
    )
    ended = server.call(
        "Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[1]
    )
    assert [e.type for e in ended.events] == [
        "ledger.SeatResigned",
        "ledger.GameConcluded",
    ]
    assert ended.game.outcome.termination_kind == pb.TERMINATION_RESIGNED
    assert list(ended.game.outcome.winners) == [0]
    assert list(ended.game.outcome.ranks) == [1, 2, 3]
    assert list(ended.game.dropped_seats) == [2, 1]
