"""The views' child waits for the database at start instead of exiting.

A database restarting while the child builds its ledger application would
otherwise end the child for good: every view would stay where it was while
the server went on serving, and nothing restarts the child.
"""

from __future__ import annotations

import pytest
from eventsourcing.persistence import OperationalError

from services.runtime.settings import Settings
from services.runtime.views_process import ledger_once_reachable


class FlakyBuild:
    """Fails like a database that closed the connection, ``failures`` times."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self, settings: Settings) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise OperationalError("server closed the connection unexpectedly")
        return "ledger"


def test_a_database_that_breaks_off_the_build_is_waited_for() -> None:
    build = FlakyBuild(failures=2)
    got = ledger_once_reachable(Settings(), lambda: False, build, pause=0.0)
    assert got == "ledger"
    assert build.calls == 3


def test_the_child_gives_up_when_told_to_stop_first() -> None:
    build = FlakyBuild(failures=10)
    assert ledger_once_reachable(Settings(), lambda: True, build, pause=0.0) is None
    assert build.calls == 1


def test_a_mistake_that_is_not_the_database_being_away_still_ends_the_child() -> None:
    def broken(settings: Settings) -> str:
        raise ValueError("bad setting")

    with pytest.raises(ValueError):
        ledger_once_reachable(Settings(), lambda: False, broken, pause=0.0)
