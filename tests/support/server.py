"""A real gRPC server on a free port, in a background event loop, for e2e tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.api.client import Connection


@dataclass
class ServerHandle(Connection):
    port: int = 0
    admin_token: str = ""
    running: Any = None
    """The server's :class:`services.runtime.server.Running` (its hub, for teardown tests)."""


@contextlib.contextmanager
def server_in_thread(wiring: Any) -> Iterator[Any]:
    """``create_server`` on a free port in a background event loop; yields ``Running``."""
    from services.runtime.server import create_server

    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(loop)
        holder["running"] = loop.run_until_complete(
            create_server(wiring, "127.0.0.1:0")
        )
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(30), "server did not start"
    running = holder["running"]
    try:
        yield running
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


@contextlib.contextmanager
def serve_in_process(settings: Any, ledger: Any) -> Iterator[ServerHandle]:
    """The real server on ``ledger`` (the tests' own process), with a client channel."""
    from services.runtime.bootstrap import Wiring

    wiring = Wiring(
        settings, settings.database_url, ledger, settings.admin_token.get_secret_value()
    )
    with server_in_thread(wiring) as running:
        channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
        try:
            yield ServerHandle(
                channel,
                pb_grpc.GameServiceStub(channel),
                running.port,
                wiring.admin_token,
                running,
            )
        finally:
            channel.close()


@pytest.fixture(scope="module")
def grpc_server(settings, ledger) -> Iterator[ServerHandle]:
    """Per module, not per session: the server's hub feeds the session ledger's
    heads, and a later module's tests (about a NOTIFY that has not arrived)
    must find that ledger with no listener attached."""
    with serve_in_process(settings, ledger) as server:
        yield server


def new_command_id() -> str:
    return str(uuid.uuid4())


@dataclass
class ServeProcess:
    """A ``ledger serve`` subprocess; ``output`` is filled in when it stops."""

    proc: Any
    target: str
    output: str = ""
    lines: list[str] = field(default_factory=list)
    """What it has printed so far, read as it prints."""


@contextlib.contextmanager
def ledger_serve(
    env: dict[str, str],
    *args: str,
    timeout: float = 60.0,
    port: int | None = None,
    cwd: str | None = None,
) -> Iterator[ServeProcess]:
    """Run ``ledger serve`` until it reports SERVING; stop it after.

    On a free port, or on ``port`` (a restart where clients already point).
    ``cwd``: run the code checked out there (``python -m`` imports from it
    first), e.g. the previous release beside this one.
    """
    import socket
    import time

    from grpc_health.v1 import health_pb2, health_pb2_grpc

    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "services.cli",
            "serve",
            "--listen",
            f"127.0.0.1:{port}",
            *args,
        ],
        # a free port for the dashboard: parallel servers never fight over 8080
        env={**os.environ, "LEDGER_HTTP_LISTEN": "127.0.0.1:0", **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=cwd,
    )
    served = ServeProcess(proc, f"127.0.0.1:{port}")
    # Read the output as it comes: a pipe nobody reads fills at 64 KiB, and
    # then the server (and its views child, which shares the pipe) blocks on
    # its next log line.  Under load and faults a server logs more, so a test
    # saw "views did not catch up" only in busy full-suite runs.
    stdout = proc.stdout
    assert stdout is not None  # stdout=PIPE
    reader = threading.Thread(
        target=lambda: served.lines.extend(iter(stdout.readline, "")), daemon=True
    )
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                health = health_pb2_grpc.HealthStub(
                    grpc.insecure_channel(served.target)
                )
                if (
                    health.Check(health_pb2.HealthCheckRequest(), timeout=2).status
                    == health_pb2.HealthCheckResponse.SERVING
                ):
                    break
            except grpc.RpcError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, (
                "ledger serve did not start"
            )
            time.sleep(0.5)
        yield served
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=30)
        served.output = "".join(served.lines)


def wait_until(
    check: Any,
    what: str,
    timeout: float = 30.0,
    evidence: Callable[[], str] | None = None,
) -> None:
    """Poll ``check()`` until it is true (bounded in time, never a timing assert).

    ``evidence``, when given, is called on a timeout and its text joins the
    failure, so a CI log says why (a server's own log, say), not only what.
    """
    import time

    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() >= deadline:
            raise AssertionError(what + (f"\n{evidence()}" if evidence else ""))
        time.sleep(0.3)


def start_project(
    url: str, args: list[str], env: dict[str, str]
) -> tuple[subprocess.Popen[bytes], list[bytes]]:
    """``ledger project`` on ``url``: the process and the lines it has printed so
    far (read by a thread)."""
    script = Path(sys.executable).with_name("ledger")
    command = (
        [str(script)] if script.exists() else [sys.executable, "-m", "services.cli"]
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    process = subprocess.Popen(
        [*command, "project", *args],
        env={
            **clean,
            "LEDGER_DATABASE_URL": url,
            "PYTHONUNBUFFERED": "1",
            "COLUMNS": "200",
            **env,
        },
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    lines: list[bytes] = []
    stdout = process.stdout
    assert stdout is not None
    reader = threading.Thread(
        target=lambda: lines.extend(iter(stdout.readline, b"")), daemon=True
    )
    reader.start()
    return process, lines


def stop(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """SIGTERM (SIGKILL after 20 s); the exit code and what it wrote to stderr."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    assert process.stderr is not None
    return process.returncode, process.stderr.read().decode(errors="replace")
