"""A real gRPC server on a free port, in a background event loop, for e2e tests."""

from __future__ import annotations

import asyncio
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
