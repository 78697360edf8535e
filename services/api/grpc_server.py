"""The gRPC server itself: its interceptor, every servicer, health and reflection.

Why apart from :mod:`services.runtime.server`: that module decides what runs
beside the API (the live hub, the views, the database watcher, the
dashboard); this one decides what a call meets (the one interceptor of
:mod:`services.api.call_gate`, then a servicer).  It is given
the objects the servicers need and knows nothing of how they were built.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ledger.v1 import (
    arbiter_service_pb2,
    arbiter_service_pb2_grpc,
    checkpoint_service_pb2,
    checkpoint_service_pb2_grpc,
    game_service_pb2,
    game_service_pb2_grpc,
    read_service_pb2,
    read_service_pb2_grpc,
    session_service_pb2,
    session_service_pb2_grpc,
    tournament_service_pb2,
    tournament_service_pb2_grpc,
)
from services.api import page_tokens, read_tokens, reflection, transport
from services.api.arbiter_servicer import ArbiterServicer
from services.api.auth import TokenResolver
from services.api.call_gate import CallGate
from services.api.checkpoint_servicer import CheckpointServicer
from services.api.drain import Drain
from services.api.game_servicer import GameServicer
from services.api.health import HealthServicer
from services.api.rating_servicer import RatingServicer
from services.api.read_rpc import ReadModels
from services.api.replay_servicer import ReplayServicer
from services.api.session_servicer import SessionServicer
from services.api.stats_servicer import StatsServicer
from services.api.tournament_servicer import TournamentServicer
from services.ledger.application import GameLedger
from services.ledger.callers import Principal
from services.ledger.reading.game_reads import GameReads
from services.live.listen_hub import EventHub
from services.tournaments import organisers
from services.tournaments.desk import TournamentDesk

SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
READ_SERVICES = tuple(
    s.full_name
    for module in (
        read_service_pb2,
        tournament_service_pb2,
        arbiter_service_pb2,
        checkpoint_service_pb2,
        session_service_pb2,
    )
    for s in module.DESCRIPTOR.services_by_name.values()
)


@dataclass(frozen=True)
class Limits:
    """The per-server limits a call meets before any servicer runs."""

    workers: int
    pending_calls: int
    streams_per_connection: int
    credentials: grpc.ServerCredentials | None = None
    """TLS (:func:`services.api.transport.server_credentials`); None: plaintext."""


@dataclass
class GrpcServer:
    server: grpc.aio.Server
    port: int
    report: Callable[[bool], Awaitable[None]]
    """Sets every service's health to SERVING (True) or NOT_SERVING (False)."""
    drain: Callable[[float], Awaitable[None]]
    """Drains and stops the server within that many seconds (:mod:`services.api.drain`)."""


async def start(
    ledger: GameLedger,
    desk: TournamentDesk,
    hub: EventHub,
    views: ReadModels,
    tournament_views: ReadModels,
    admin_token: str,
    limits: Limits,
    address: str,
) -> GrpcServer:
    """Bind ``address`` (port 0 picks one) and start serving calls.

    Health says NOT_SERVING until the caller reports (``GrpcServer.report``):
    only it knows when everything a client may look for next is ready.
    """
    executor: ThreadPoolExecutor = ledger.executor  # one pool for every blocking call
    loop = asyncio.get_running_loop()

    def find(token: str) -> Principal | None:
        grant = ledger.grant_for_token(token)
        if grant is not None:
            return Principal(grant=grant)
        tournament = desk.grant_for_token(token)
        if tournament is not None:
            return Principal(tournament=tournament)
        if organisers.is_organiser(desk.datastore, token):
            return Principal(organiser=True)
        return None

    async def lookup(token: str) -> Principal | None:
        return await ledger.io(find, token)

    resolver = TokenResolver(admin_token, lookup)
    reads = GameReads(ledger)  # one read path (and spectator window) per server
    page_tokens.configure(admin_token)  # every worker signs alike
    read_tokens.configure(admin_token)  # and seals read tokens alike
    drain = Drain()
    server = grpc.aio.server(
        interceptors=[CallGate(drain, limits.streams_per_connection, resolver)],
        options=transport.server_options(limits.workers, limits.pending_calls),
    )
    game_servicer = GameServicer(
        ledger, hub, tournament_of=desk.tournament_of, reads=reads
    )
    game_service_pb2_grpc.add_GameServiceServicer_to_server(game_servicer, server)
    session_service_pb2_grpc.add_SeatSessionServiceServicer_to_server(
        SessionServicer(ledger, hub, reads, game_servicer.events), server
    )
    read_service_pb2_grpc.add_ReplayServiceServicer_to_server(
        ReplayServicer(reads), server
    )
    read_service_pb2_grpc.add_RatingServiceServicer_to_server(
        RatingServicer(views), server
    )
    read_service_pb2_grpc.add_StatsServiceServicer_to_server(
        StatsServicer(views), server
    )
    arbiter_service_pb2_grpc.add_ArbiterServiceServicer_to_server(
        ArbiterServicer(ledger, desk.tournament_of, desk.round_games), server
    )
    checkpoint_service_pb2_grpc.add_CheckpointServiceServicer_to_server(
        CheckpointServicer(ledger, reads), server
    )
    tournament_service_pb2_grpc.add_TournamentServiceServicer_to_server(
        TournamentServicer(desk, tournament_views, executor, hub), server
    )
    health_servicer = HealthServicer(views, ledger.head_signer)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable(
        server,
        (
            SERVICE_NAME,
            *READ_SERVICES,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        ),
    )
    if limits.credentials is not None:
        port = server.add_secure_port(address, limits.credentials)
    else:
        port = server.add_insecure_port(address)
    await server.start()

    async def report(up: bool) -> None:
        status = health_pb2.HealthCheckResponse.SERVING
        if not up:
            status = health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME, *READ_SERVICES):
            await health_servicer.set(name, status)

    async def drain_and_stop(seconds: float) -> None:
        deadline = loop.time() + seconds
        await health_servicer.enter_graceful_shutdown()  # NOT_SERVING, for good
        drain.start()
        await drain.finish(seconds)
        await server.stop(max(deadline - loop.time(), 0.0))

    await report(False)
    return GrpcServer(server, port, report, drain_and_stop)
