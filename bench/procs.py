"""Processes the harness starts (the ledger server, the null server), stopped by pid.

Why apart from :mod:`bench.cpu`: starting, health-checking and stopping
servers is process control; measuring what they cost is ``bench.cpu``.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.cpu import descendants

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ServerProcess:
    """A process the harness started; stopped by its own pid only."""

    proc: subprocess.Popen[bytes]
    port: int
    log_path: Path
    admin_token: str = ""

    @property
    def pid(self) -> int:
        return self.proc.pid

    def pids(self) -> tuple[int, ...]:
        """The server and every process it spawned (``--workers N``)."""
        return (self.proc.pid, *descendants(self.proc.pid))

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(
                self.log_path.read_text(errors="replace").splitlines()[-lines:]
            )
        except OSError:
            return ""

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def wait_healthy(
    server: ServerProcess, timeout: float = 90.0, service: str = ""
) -> None:
    """Poll the gRPC health service until SERVING (bounded in time)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    last: Exception | None = None
    with grpc.insecure_channel(server.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if server.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {server.proc.returncode}:\n{server.log_tail()}"
                )
            try:
                reply = stub.Check(
                    health_pb2.HealthCheckRequest(service=service), timeout=2
                )
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError as exc:
                last = exc
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(
        f"server not healthy after {timeout}s ({last}):\n{server.log_tail()}"
    )


def start_module(
    module: str,
    args: list[str],
    workdir: Path,
    name: str,
    env: dict[str, str],
    port: int,
    admin_token: str = "",
) -> ServerProcess:
    """``python -m module args`` with this checkout first on its path, its
    output to ``<workdir>/<name>.log``, run from ``workdir`` (not the repo: no
    stray .env file is read); returned once healthy."""
    log_path = workdir / f"{name}.log"
    path = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=workdir,
            env={**env, "PYTHONPATH": path},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = ServerProcess(proc, port, log_path, admin_token)
    wait_healthy(server)
    return server


def start_ledger_server(
    database_url: str,
    workdir: Path,
    *,
    cache_size: int | None = None,
    pool_size: int | None = None,
    snapshot_interval: int | None = None,
    workers: int | None = None,
    name: str = "ledger",
    extra_env: dict[str, str] | None = None,
) -> ServerProcess:
    """``python -m services.cli serve`` on a free loopback port, against ``database_url``."""
    port = free_port()
    token = secrets.token_urlsafe(24)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    env.update(
        LEDGER_DATABASE_URL=database_url,
        LEDGER_ADMIN_TOKEN=token,
        LEDGER_DATA_DIR=str(workdir / f"{name}-data"),
        LEDGER_HTTP_LISTEN="off",  # the dashboard has its own bench (bench/dashboard.py)
        PYTHONUNBUFFERED="1",
    )
    if cache_size is not None:
        env["LEDGER_CACHE_SIZE"] = str(cache_size)
    if pool_size is not None:
        env["LEDGER_POOL_SIZE"] = str(pool_size)
    if snapshot_interval is not None:
        env["LEDGER_SNAPSHOT_INTERVAL"] = str(snapshot_interval)
    if workers is not None:
        env["LEDGER_WORKERS"] = str(workers)
    env.update(extra_env or {})
    server = start_module(
        "services.cli",
        ["serve", "--listen", f"127.0.0.1:{port}", "--log-level", "WARNING"],
        workdir,
        name,
        env,
        port,
        token,
    )
    if workers and workers > 1:
        # each connection lands on one worker: ask a few times, then let the rest settle
        for _ in range(4 * workers):
            wait_healthy(server)
        time.sleep(1.0)
    return server


def start_null_server(workdir: Path, canned_path: Path) -> ServerProcess:
    """The Python gRPC ceiling: ``bench.nullserver`` answering canned bytes."""
    port = free_port()
    return start_module(
        "bench.nullserver",
        ["--port", str(port), "--canned", str(canned_path)],
        workdir,
        "nullserver",
        {**os.environ, "PYTHONUNBUFFERED": "1"},
        port,
    )


def make_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="ledger-bench-"))
