"""Absent players, aborts and strict time controls through the real server.

The server runs on the session ledger with a clock the test moves by hand
and no timekeeper, so every timeout is recorded by the call that finds it.
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.test_referee_over_grpc import game_of, new_game, refusal
from tests.support.manual_clock import ManualClock

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("control", "field"),
    [
        (
            {"kind": "fischer", "base_seconds": 60, "per_move_seconds": 10},
            "time_control.per_move_seconds",
        ),
        (
            {"kind": "per_move", "per_move_seconds": 10, "increment_seconds": 2},
            "time_control.increment_seconds",
        ),
        ({"kind": "none", "days_per_move": 2}, "time_control.days_per_move"),
        (
            {"kind": "per_move", "per_move_seconds": 10, "abort_before_moves": 20},
            "time_control.abort_before_moves",
        ),
    ],
)
def test_a_time_control_field_that_would_be_ignored_is_refused_by_name(
    server: Any, control: dict[str, Any], field: str
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        new_game(server, **control)
    code, _, bad = refusal(refused.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in bad.field_violations] == [field]


def test_both_seats_absent_is_a_double_forfeit_seen_by_every_reader(
    server: Any, clock: ManualClock
) -> None:
    table = new_game(server, kind="per_move", per_move_seconds=10, no_show_seconds=60)
    clock.advance(30)  # past the 10 s move limit, inside the 60 s window
    assert not game_of(server, table).HasField("outcome")
    clock.advance(31)
    with pytest.raises(grpc.RpcError) as refused:
        server.call("Abort", pb.AbortRequest(game_id=table.game_id), table.tokens[0])
    code, info, _ = refusal(refused.value)
    assert (code, info["rule"]) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "clock.flagged",
    )
    outcome = game_of(server, table).outcome
    assert outcome.termination_kind == pb.TERMINATION_FORFEITED
    assert list(outcome.winners) == []
    assert list(outcome.absent_seats) == [0, 1]


def started_cup(server: Any, name: str) -> tuple[Any, Any, str, str]:
    """A started two-player round robin: (its stub, the organiser's metadata,
    its id, its one game)."""
    from ledger.v1 import tournament_service_pb2 as tpb
    from ledger.v1 import tournament_service_pb2_grpc as tpb_grpc

    cups = tpb_grpc.TournamentServiceStub(server.channel)
    organiser = cups.IssueOrganiserToken(
        tpb.IssueOrganiserTokenRequest(label=name),
        metadata=(("authorization", f"Bearer {server.admin_token}"),),
    ).organiser_token
    cup = cups.CreateTournament(
        tpb.CreateTournamentRequest(
            name=name, game_type="vaalbara", format="round_robin", rounds=0
        ),
        metadata=(("authorization", f"Bearer {organiser}"),),
    )
    auth = (("authorization", f"Bearer {cup.organiser_token}"),)
    tid = cup.tournament.tournament_id
    for player in ("ann", "bob", "cyd"):
        cups.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=f"{name}-{player}"),
            metadata=auth,
        )
    round_ = cups.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth)
    return cups, auth, tid, round_.tables[0].game_id


def test_an_aborted_tournament_game_is_no_draw_and_its_round_waits(
    server: Any,
) -> None:
    from ledger.v1 import tournament_service_pb2 as tpb

    cups, auth, tid, game_id = started_cup(server, f"abort-{uuid.uuid4().hex[:6]}")
    organiser = auth[0][1].removeprefix("Bearer ")
    ended = server.call(
        "Abort", pb.AbortRequest(game_id=game_id, reason="wrong table"), organiser
    )
    assert ended.game.outcome.termination == "aborted"
    standings = cups.GetStandings(
        tpb.GetStandingsRequest(tournament_id=tid, min_log_position=ended.log_position)
    )
    pairings = cups.GetPairings(tpb.GetPairingsRequest(tournament_id=tid))
    (table,) = [t for t in pairings.tables if t.game_id == game_id]
    at_table = [r for r in standings.rows if r.player_id in table.players]
    assert len(at_table) == 2
    assert all(r.points == 0 and r.draws == 0 and r.played == 0 for r in at_table)
    assert not table.finished and list(table.ranks) == []
    with pytest.raises(grpc.RpcError) as waits:
        cups.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth)
    _, info, _ = refusal(waits.value)
    assert info["rule"] == "tournament.round-incomplete"
