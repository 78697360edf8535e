"""``deploy/local/pg-ha-up.sh`` run for a test: etcd, 3 Patroni nodes, HAProxy.

What a test does to it is what an operator (or a dying machine) does: run
the script as written, kill a node's processes with ``kill -9`` (Patroni and
its PostgreSQL: the machine is gone), run the script again to bring the node
back, ``patronictl switchover``, and stop it all with ``pg-ha-down.sh``.
Skipped where Debian's packages are not installed (``.ci/run`` installs them).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.shipped import BIN, DEPLOY, free_ports
from tests.support.scratch_postgres import _children

TOOLS = ("etcd", "patroni", "patronictl", "haproxy", "pgbackrest")
NODES = 3


def require_tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (see .ci/run)")


@dataclass
class Cluster:
    run: Path
    base: int
    env: dict[str, str]
    """``RUN_DIR/env``: the URLs, ``PATRONICTL_CONFIG_FILE``, ``PGBACKREST_CONFIG``."""

    def rest(self, node: int, path: str) -> int:
        """The status of ``GET path`` on node ``node``'s Patroni REST API (0: no answer)."""
        url = f"http://127.0.0.1:{self.base + 3 + node}{path}"
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)
        except OSError:
            return 0

    def leader(self) -> int | None:
        for node in range(NODES):
            if self.rest(node, "/primary") == 200:
                return node
        return None

    def members(self) -> list[dict[str, object]]:
        out = self.patronictl("list", "--format", "json")
        return list(json.loads(out))

    def patronictl(self, *args: str) -> str:
        done = subprocess.run(
            ["patronictl", *args],
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def kill_node(self, node: int) -> None:
        """``kill -9`` of node ``node``'s Patroni and every process of its PostgreSQL."""
        patroni = int((self.run / f"patroni{node}.pid").read_text())
        pidfile = self.run / f"pg{node}" / "data" / "postmaster.pid"
        postmaster = int(pidfile.read_text().split()[0])
        victims = [patroni, postmaster, *_children(postmaster)]
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def up(self) -> str:
        """``pg-ha-up.sh RUN_DIR BASE``: starts what is not running."""
        done = subprocess.run(
            [str(DEPLOY / "local" / "pg-ha-up.sh"), str(self.run), str(self.base)],
            env={**os.environ, "PYTHON": str(BIN / "python")},
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        self.env = read_env(self.run / "env")
        return done.stdout

    def log(self, name: str) -> str:
        path = self.run / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def read_env(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition("=")
        env[key] = value
    return env


@contextlib.contextmanager
def patroni_cluster() -> Iterator[Cluster]:
    """The cluster of ``pg-ha-up.sh``, in a scratch directory, stopped and removed after."""
    require_tools()
    # the postgres user must reach its data under it: not pytest's 0700 tmp_path
    run = Path(tempfile.mkdtemp(prefix="ledger-pg-ha-"))
    run.chmod(0o755)
    cluster = Cluster(run, free_ports(14), {})
    try:
        cluster.up()
        yield cluster
    finally:
        subprocess.run(
            [str(DEPLOY / "local" / "pg-ha-down.sh"), str(run)],
            timeout=120,
            check=False,
            capture_output=True,
        )
        shutil.rmtree(run, ignore_errors=True)


def wait_for(check: object, what: str, timeout: float = 60.0) -> float:
    """Poll ``check()`` until true; the seconds it took."""
    started = time.monotonic()
    while not check():  # type: ignore[operator]
        assert time.monotonic() - started < timeout, what
        time.sleep(0.1)
    return time.monotonic() - started
