"""Which version a spectator of a delayed game may see (``domain.ledger.spectator``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.contract.core import InvalidCommandError
from domain.ledger.spectator import (
    Mark,
    SpectatorDelay,
    marks_of,
    parse_delay,
    visible_version,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# creation (v1), opening (v2-3), then moves ending at v4, v7, v8, v10
MARKS = [
    Mark(1, False, at(0)),
    Mark(3, False, at(0)),
    Mark(4, True, at(10)),
    Mark(7, True, at(20)),
    Mark(8, True, at(30)),
    Mark(10, True, at(40)),
]


@pytest.mark.parametrize(
    ("moves", "expected"), [(1, 8), (2, 7), (3, 4), (4, 3), (50, 3)]
)
def test_a_move_delay_shows_the_game_before_the_last_n_moves(moves, expected):
    assert visible_version(SpectatorDelay(moves=moves), MARKS, at(41)) == expected


@pytest.mark.parametrize(
    ("now", "expected"), [(24, 3), (25, 4), (40, 7), (44, 7), (46, 8), (56, 10)]
)
def test_a_seconds_delay_shows_every_move_at_least_that_old(now, expected):
    assert visible_version(SpectatorDelay(seconds=15), MARKS, at(now)) == expected


def test_marks_group_a_decisions_events_and_count_only_seat_moves():
    class Stored:
        def __init__(self, version, decision, actor):
            self.originator_version, self.decision, self.actor = (
                version,
                decision,
                actor,
            )
            self.timestamp = T0

    class Created:
        originator_version, timestamp = 1, T0

    events = [Created()] + [
        Stored(v, d, a)
        for v, d, a in [(2, 1, None), (3, 1, None), (4, 3, 0), (5, 4, 1), (6, 4, 1)]
    ]
    assert [(m.version, m.moved) for m in marks_of(events)] == [
        (1, False),
        (3, False),
        (4, True),
        (6, True),
    ]


@pytest.mark.parametrize(
    "raw",
    [
        {"moves": -1},
        {"moves": 1001},
        {"seconds": 86_401},
        {"moves": 1, "seconds": 1},
        {"hours": 1},
    ],
)
def test_an_impossible_delay_is_an_invalid_command(raw):
    with pytest.raises(InvalidCommandError):
        parse_delay(raw)


def test_no_delay_or_zero_is_live():
    assert parse_delay(None) is None and parse_delay({"moves": 0}) is None
    assert parse_delay({"seconds": 30}) == SpectatorDelay(seconds=30)
