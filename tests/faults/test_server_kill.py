"""``ledger serve`` killed with ``kill -9`` under load, then restarted on the same
port; clients resend the same command ids until answered."""

from __future__ import annotations

import pytest

from tests.faults.harness import (
    SIZE,
    Figures,
    Load,
    check_ledger,
    check_views,
    serve_env,
    views_behind,
    views_caught_up,
)
from tests.support.database import scratch_database
from tests.support.scratch_postgres import free_port
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]


def test_kill_9_of_the_server_under_load_loses_and_duplicates_nothing(
    scratch_pg, tmp_path
):
    figures = Figures("server kill -9", SIZE.clients, fault_kind="kill -9 ledger serve")
    with scratch_database(scratch_pg.url, "ledger_kill") as url:
        env = serve_env(url, tmp_path)
        port = free_port()
        load = Load(f"127.0.0.1:{port}", SIZE, seed=1)
        for round_ in range(SIZE.faults + 1):
            with ledger_serve(env, port=port) as served:
                if round_ == 0:
                    load.start()
                if round_ < SIZE.faults:
                    load.wait_for(SIZE.moves * (round_ + 1) // (SIZE.faults + 1))
                    served.proc.kill()
                    served.proc.wait()
                    figures.faults += 1
                else:
                    load.finish()
                    wait_until(
                        lambda: views_caught_up(url),
                        "views did not catch up",
                        120,
                        evidence=lambda: views_behind(url, served),
                    )
        check_ledger(url, load, figures)
        check_views(url, figures)
    figures.publish()
    assert figures.faults == SIZE.faults
