"""PostgreSQL restarted (an administrator's fast restart), and stopped for some
seconds (an immediate stop: a crash), under load.  Health must say NOT_SERVING
while it is down; clients see only UNAVAILABLE (or their own deadline) and
resend the same command ids."""

from __future__ import annotations

import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

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
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.e2e]
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def test_postgres_restarts_and_outages_under_load_lose_and_duplicate_nothing(
    scratch_pg, tmp_path
):
    figures = Figures(
        "postgres restart + stop",
        SIZE.clients,
        fault_kind=f"pg_ctl restart -m fast; pg_ctl stop -m immediate for {SIZE.outage:g} s",
    )
    with scratch_database(scratch_pg.url, "ledger_pgfault") as url:
        with ledger_serve(serve_env(url, tmp_path)) as served:
            channel = grpc.insecure_channel(served.target)
            health = health_pb2_grpc.HealthStub(channel)

            def status() -> int:
                return health.Check(health_pb2.HealthCheckRequest(), timeout=5).status

            load = Load(served.target, SIZE, seed=2)
            load.start()
            step = SIZE.moves // (2 * SIZE.faults + 1)
            for i in range(SIZE.faults):
                load.wait_for(step * (2 * i + 1))
                scratch_pg.restart("fast")
                figures.faults += 1
                load.wait_for(step * (2 * i + 2))
                stopped = time.monotonic()
                scratch_pg.stop("immediate")
                wait_until(lambda: status() == NOT_SERVING, "health stayed SERVING")
                time.sleep(max(0.0, SIZE.outage - (time.monotonic() - stopped)))
                scratch_pg.start()
                figures.faults += 1
                wait_until(lambda: status() == SERVING, "health did not recover")
            load.finish()
            wait_until(
                lambda: views_caught_up(url),
                "views did not catch up",
                120,
                evidence=lambda: views_behind(url, served),
            )
            channel.close()
        # an outage is one log line per change of state, never a traceback storm
        assert "Traceback" not in served.output, served.output
        check_ledger(url, load, figures)
        check_views(url, figures)
    figures.publish()
    assert figures.faults == 2 * SIZE.faults
