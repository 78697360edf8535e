"""Absent players, aborts and strict time controls through the real server.

The server runs on the session ledger with a clock the test moves by hand
and no timekeeper, so every timeout is recorded by the call that finds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.test_referee_over_grpc import game_of, new_game, refusal
from tests.support.manual_clock import ManualClock
from tests.support.server import serve_in_process

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def clock(ledger: Any) -> Iterator[ManualClock]:
    manual = ManualClock()
    before, ledger.clock = ledger.clock, manual
    yield manual
    ledger.clock = before


@pytest.fixture(scope="module")
def server(settings: Any, ledger: Any, clock: ManualClock) -> Iterator[Any]:
    quiet = settings.model_copy(update={"timekeeper_interval": 0})
    with serve_in_process(quiet, ledger) as handle:
        yield handle


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
