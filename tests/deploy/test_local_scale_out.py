"""The stateless gRPC tier as deployed by ``deploy/local/up.sh``: 3 servers on one
database, one projection worker and a NATS JetStream server for live fan-out.  Clients start round-robin and fail over
to the next server on UNAVAILABLE; one server is killed with ``kill -9``
mid-run and stays dead.  Nothing is lost: acknowledged moves == stored moves,
every game audits OK, every view equals a rebuild (tests/faults' checks).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.faults.harness import (
    SIZE,
    Figures,
    Load,
    check_ledger,
    check_views,
    views_caught_up,
)
from tests.support.database import scratch_database
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
LOCAL = Path(__file__).resolve().parents[2] / "deploy" / "local"


def _free_base(count: int = 3) -> int:
    """A port p with p..p+count-1 free now, below the kernel's ephemeral range.

    A server killed and started again on its port must find it still free.
    Inside the ephemeral range the kernel may meanwhile hand that port to an
    outgoing connection (a load client's, a database pool's), and the restart
    then fails to bind: a key-rotation run lost a server that way.
    """
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rnd = random.Random()
    for _ in range(200):
        base = rnd.randrange(10_000, low - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise AssertionError("no free port range")


def test_three_servers_one_killed_under_load_lose_nothing(server_url, tmp_path):
    figures = Figures("3 servers, kill -9 of one", SIZE.clients, fault_kind="kill -9")
    run = tmp_path / "run"
    with scratch_database(server_url, "ledger_scale") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_BIN": str(Path(sys.executable).with_name("ledger")),
            "PYTHON": sys.executable,
            "LEDGER_POOL_SIZE": "3",
            "LEDGER_HEALTH_INTERVAL": "0.5",
        }
        base = _free_base(5)  # 3 servers, their NATS and the dashboard
        try:
            up = subprocess.run(
                [str(LOCAL / "up.sh"), str(run), str(base)],
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
                check=False,
            )
            assert up.returncode == 0, up.stdout + up.stderr
            assert up.stdout.count("SERVING") == 3
            assert "nats: nats://127.0.0.1" in up.stdout  # JetStream fan-out on
            targets = [f"127.0.0.1:{base + i}" for i in range(3)]
            load = Load(",".join(targets), SIZE, seed=5)
            load.start()
            load.wait_for(SIZE.moves // 3)
            victim = int((run / "serve-1.pid").read_text())
            os.kill(victim, signal.SIGKILL)
            figures.faults += 1
            load.finish()
            wait_until(lambda: views_caught_up(url), "views did not catch up", 120)
            check_ledger(url, load, figures)
            check_views(url, figures)
        finally:
            subprocess.run([str(LOCAL / "down.sh"), str(run)], timeout=60, check=False)
    answered: Counter[str] = Counter()
    for conn in load.connections:
        answered.update(conn.answered)
    figures.extra["calls_answered_per_server"] = {t: answered[t] for t in targets}
    figures.extra["failovers"] = sum(c.failovers for c in load.connections)
    figures.publish()
    assert all(answered[t] > 0 for t in targets), answered  # the load went through all
    assert figures.extra["failovers"] >= 1  # client 1 started on the victim
    assert figures.moves_lost == 0 and figures.duplicates == 0
    assert figures.games_audited_ok == figures.games > 0
