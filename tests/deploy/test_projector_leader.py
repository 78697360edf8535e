"""``ledger project`` workers: exactly one active runner per view, the rest stand by.

Two exclusive projectors on one database: the first holds every view's
advisory lock, the second runs none; when the first's session ends (as a
``kill -9`` ends it) the second takes every view over.
"""

from __future__ import annotations

import pytest

from projections.projector import Projector
from services.runtime.bootstrap import view_runners
from tests.support.server import wait_until

pytestmark = pytest.mark.postgres


def test_one_active_runner_per_view(ledger, database_url: str) -> None:
    runners = view_runners(ledger.datastore)
    views = {r.view.name for r in runners}
    first = Projector(runners, database_url, exclusive=True)
    second = Projector(runners, database_url, exclusive=True)
    try:
        assert first.active() == views
        assert second.active() == set()
        shared = Projector(runners, database_url)  # `ledger serve`'s in-process one
        assert shared.active() == views
        first.stop()  # closes its session: PostgreSQL releases the locks
        wait_until(
            lambda: second.active() == views,
            "the standby did not take the views over",
            timeout=10,
        )
    finally:
        first.stop()
        second.stop()
