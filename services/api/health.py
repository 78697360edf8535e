"""The standard health service, completed with ``List``.

Why: grpcio-health-checking's asyncio servicer leaves ``List`` (added to
``grpc.health.v1`` in 2024) unimplemented, so a client calling it got
``UNKNOWN`` from a ``NotImplementedError``; nothing a client sends may do that.
"""

from __future__ import annotations

from typing import Any

from grpc_health.v1 import health, health_pb2


class HealthServicer(health.aio.HealthServicer):
    async def List(
        self, request: health_pb2.HealthListRequest, context: Any
    ) -> health_pb2.HealthListResponse:
        return health_pb2.HealthListResponse(
            statuses={
                name: health_pb2.HealthCheckResponse(status=status)
                for name, status in self._server_status.items()
            }
        )
