"""``ledger project`` killed with ``kill -9`` in the middle of a batch, under load,
then restarted: no event applied twice or skipped, every view equals a rebuild.

"Mid-batch" is observed, not hoped for: the kill is sent the moment
``pg_locks`` shows the projector's session holding a batch's lock on the
tracking table."""

from __future__ import annotations

import subprocess
import time

import psycopg
import pytest

from tests.faults.harness import (
    SIZE,
    Figures,
    Load,
    check_ledger,
    check_views,
    serve_env,
    views_caught_up,
)
from tests.support.database import scratch_database
from tests.support.server import ledger_serve, start_project, stop, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
APP = "ledger-project-under-test"
BATCH_OPEN = (
    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
    " WHERE a.application_name = %s AND l.mode = 'RowShareLock'"
    " AND l.relation = to_regclass('projection_tracking')"
)
"""A batch begins with ``SELECT ... FOR UPDATE`` on its view's tracking row
(a RowShareLock on the table) and holds it until it commits."""


def kill_mid_batch(
    process: subprocess.Popen[bytes], url: str, timeout: float = 60.0
) -> bool:
    """SIGKILL ``process`` as soon as one of its batches is open (True), or at
    ``timeout`` if none was seen (False)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as db:
        while time.monotonic() < deadline:
            row = db.execute(BATCH_OPEN, (APP,)).fetchone()
            assert row is not None  # count(*) always returns one row
            (open_batch,) = row
            if open_batch:
                process.kill()
                process.wait()
                return True
            time.sleep(0.002)
    process.kill()
    process.wait()
    return False


def test_kill_9_of_the_projector_mid_batch_applies_every_event_once(
    scratch_pg, tmp_path
):
    figures = Figures(
        "projector kill -9", SIZE.clients, fault_kind="kill -9 ledger project mid-batch"
    )
    with scratch_database(scratch_pg.url, "ledger_projkill") as url:
        env = serve_env(url, tmp_path, LEDGER_PROJECTIONS="false")
        with ledger_serve(env) as served:
            load = Load(served.target, SIZE, seed=3)
            load.start()
            project, _ = start_project(url, [], {"PGAPPNAME": APP})
            mid_batch = 0
            for i in range(SIZE.faults):
                load.wait_for(SIZE.moves * (i + 1) // (SIZE.faults + 1))
                mid_batch += kill_mid_batch(project, url)
                figures.faults += 1
                project, printed = start_project(url, [], {"PGAPPNAME": APP})
            load.finish()
            wait_until(lambda: views_caught_up(url), "views did not catch up", 120)
            # the views may have caught up before the last restart finished
            # starting: a SIGTERM before it listens for one is not a clean stop
            wait_until(
                lambda: any(b"projecting" in line for line in printed),
                "the restarted projector never started",
                60,
            )
            code, err = stop(project)
            assert code == 0, err
        check_ledger(url, load, figures)
        check_views(url, figures)
    figures.extra["kills_with_a_batch_open"] = mid_batch
    figures.publish()
    assert figures.faults == SIZE.faults
    assert mid_batch == SIZE.faults, "a kill did not land inside a batch"
