"""A real gRPC server on a free port, in a background event loop, for e2e tests."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Iterator

import grpc
import pytest

from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.client import Connection


@dataclass
class ServerHandle(Connection):
    port: int = 0
    admin_token: str = ""


@pytest.fixture(scope="session")
def grpc_server(settings, ledger) -> Iterator[ServerHandle]:  # type: ignore[no-untyped-def]
    from services.bootstrap import Wiring
    from services.server import create_server

    wiring = Wiring(settings, settings.database_url, ledger, settings.admin_token.get_secret_value())
    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, Any] = {}

    def run() -> None:
        asyncio.set_event_loop(loop)
        holder["running"] = loop.run_until_complete(create_server(wiring, "127.0.0.1:0"))
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(30), "server did not start"
    running = holder["running"]
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    yield ServerHandle(channel, pb_grpc.GameServiceStub(channel), running.port, wiring.admin_token)
    channel.close()
    asyncio.run_coroutine_threadsafe(running.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def new_command_id() -> str:
    return str(uuid.uuid4())


@dataclass
class ServeProcess:
    """A ``ledger serve`` subprocess; ``output`` is filled in when it stops."""

    proc: Any
    target: str
    output: str = ""


@contextlib.contextmanager
def ledger_serve(env: dict[str, str], *args: str, timeout: float = 60.0) -> Iterator[ServeProcess]:
    """Run ``ledger serve`` on a free port until it reports SERVING; stop it after."""
    import os
    import socket
    import subprocess
    import sys
    import time

    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "serve", "--listen", f"127.0.0.1:{port}", *args],
        env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    served = ServeProcess(proc, f"127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                health = health_pb2_grpc.HealthStub(grpc.insecure_channel(served.target))
                if health.Check(health_pb2.HealthCheckRequest(), timeout=2).status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "ledger serve did not start"
            time.sleep(0.5)
        yield served
    finally:
        proc.terminate()
        served.output, _ = proc.communicate(timeout=30)


def wait_until(check: Any, what: str, timeout: float = 30.0) -> None:
    """Poll ``check()`` until it is true (bounded in time, never a timing assert)."""
    import time

    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.3)
