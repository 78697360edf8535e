"""The standard health service, completed with ``List``, and each view's state.

Why: grpcio-health-checking's asyncio servicer leaves ``List`` (added to
``grpc.health.v1`` in 2024) unimplemented, so a client calling it got
``UNKNOWN`` from a ``NotImplementedError``; nothing a client sends may do that.

``List`` also names each read model as ``ledger.v1.views/<view>``:
``NOT_SERVING`` while the view is stopped at a log event it cannot apply (a
poisoned log; ``ledger projections status`` says which and why).  Each game a
view stopped applying (an event after the game's conclusion) is listed too,
as ``ledger.v1.views/<view>/games/<game id>``, ``NOT_SERVING``: the view
goes on serving every other game.  The server itself stays ``SERVING``: the
view still answers from what it has.

A tournament that refused a game's result (:mod:`services.tournaments.results`)
is listed as ``ledger.v1.tournaments/<id>``, ``NOT_SERVING``: it stopped at
that round while the others go on.

``List`` names the signer as ``ledger.v1.signer``: ``NOT_SERVING`` once it
refused to sign a second history of a game (a rollback in the database;
``HeadSigner.alarm`` in the log says which game and version), for good
until the server restarts; the other games are still served.
"""

from __future__ import annotations

from typing import Any

from grpc_health.v1 import health, health_pb2

from projections.runner import TRANSIENT
from services.tournaments.results import halted

VIEWS_PREFIX = "ledger.v1.views/"
TOURNAMENTS_PREFIX = "ledger.v1.tournaments/"
SIGNER = "ledger.v1.signer"


class HealthServicer(health.aio.HealthServicer):
    def __init__(self, views: Any = None, signer: Any = None) -> None:
        """``views``: the :class:`~services.api.read_rpc.ReadModels` whose
        views ``List`` reports (none: only the services); ``signer``: the
        ledger's :class:`~services.ledger.head_signer.HeadSigner`."""
        super().__init__()
        self._views = views
        self._signer = signer

    async def List(
        self, request: health_pb2.HealthListRequest, context: Any
    ) -> health_pb2.HealthListResponse:
        statuses = {
            name: health_pb2.HealthCheckResponse(status=status)
            for name, status in self._server_status.items()
        }
        for name, stalled in await self._view_states():
            statuses[name] = health_pb2.HealthCheckResponse(
                status=health_pb2.HealthCheckResponse.NOT_SERVING
                if stalled
                else health_pb2.HealthCheckResponse.SERVING
            )
        for tournament_id in await self._halted_tournaments():
            statuses[TOURNAMENTS_PREFIX + tournament_id] = (
                health_pb2.HealthCheckResponse(
                    status=health_pb2.HealthCheckResponse.NOT_SERVING
                )
            )
        if self._signer is not None:
            statuses[SIGNER] = health_pb2.HealthCheckResponse(
                status=health_pb2.HealthCheckResponse.NOT_SERVING
                if self._signer.alarm
                else health_pb2.HealthCheckResponse.SERVING
            )
        return health_pb2.HealthListResponse(statuses=statuses)

    async def _halted_tournaments(self) -> list[str]:
        if self._views is None:
            return []
        try:
            alarms = await self._views.query(halted)
        except TRANSIENT:
            return []
        return sorted({str(a["tournament_id"]) for a in alarms})

    async def _view_states(self) -> list[tuple[str, bool]]:
        if self._views is None:
            return []
        try:
            statuses = await self._views.statuses()
        except TRANSIENT:  # the database is down: the services say so already
            return []
        states = []
        for s in statuses:
            states.append((VIEWS_PREFIX + s.view, s.stalled is not None))
            states.extend(
                (f"{VIEWS_PREFIX}{s.view}/games/{g.game_id}", True)
                for g in s.stopped_games
            )
        return states
