"""Baseline (c): the ledger's gRPC server setup (``grpc.aio``, same process model)
with a null handler that answers every GameService method with canned bytes.

The canned responses are real ones captured from the ledger in the same run,
so the client does exactly the work it does against the ledger (same calls,
same response sizes) and this process measures Python gRPC alone: no auth,
no database, no rules.  Run: ``python -m bench.nullserver --port P --canned FILE``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import signal
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc


class NullHandler(grpc.GenericRpcHandler):
    def __init__(self, canned: dict[str, bytes]) -> None:
        self._handlers: dict[str, Any] = {}
        for method, body in canned.items():
            self._handlers[method] = grpc.unary_unary_rpc_method_handler(_answer(body))

    def service(self, handler_call_details: Any) -> Any:
        return self._handlers.get(handler_call_details.method)


def read_canned(path: str) -> dict[str, bytes]:
    """The canned responses (``canned_baseline.write_canned``) by full method name."""
    with open(path) as fh:
        return {k: base64.b64decode(v) for k, v in json.load(fh).items()}


def _answer(body: bytes) -> Any:
    async def unary(request: bytes, context: Any) -> bytes:
        return body

    return unary


async def main(port: int, canned_path: str) -> None:
    canned = read_canned(canned_path)
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((NullHandler(canned),))
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--canned", required=True)
    args = parser.parse_args()
    asyncio.run(main(args.port, args.canned))
