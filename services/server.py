"""The gRPC server: GameService plus the standard health and reflection services.

``create_server(wiring, address)`` returns ``(server, port)`` so tests can bind
``127.0.0.1:0``; ``serve`` runs until a signal.  We use ``grpc.aio`` so a
live stream costs a coroutine, not a thread; the synchronous ledger runs in a
thread pool sized to the database pool.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from ledger.v1 import (
    game_service_pb2,
    game_service_pb2_grpc,
    read_service_pb2,
    read_service_pb2_grpc,
    tournament_service_pb2,
    tournament_service_pb2_grpc,
)
from projections import registry
from projections.runner import Projector
from services.auth import AuthInterceptor, Principal, TokenResolver
from services.tournament_servicer import TournamentServicer
from services.tournaments import TournamentDesk
from services.bootstrap import Wiring
from services.live import EventHub
from services.read_servicer import RatingServicer, ReadModels, ReplayServicer, StatsServicer
from services.servicer import GameServicer

log = logging.getLogger(__name__)
SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
READ_SERVICES = tuple(
    s.full_name
    for module in (read_service_pb2, tournament_service_pb2)
    for s in module.DESCRIPTOR.services_by_name.values()
)


@dataclass
class Running:
    server: grpc.aio.Server
    port: int
    hub: EventHub
    executor: ThreadPoolExecutor
    projector: Projector | None = None

    async def stop(self, grace: float = 1.0) -> None:
        await self.server.stop(grace)
        await self.hub.stop()
        if self.projector is not None:
            self.projector.stop()
        self.executor.shutdown(wait=False, cancel_futures=True)


async def create_server(wiring: Wiring, address: str) -> Running:
    executor = ThreadPoolExecutor(max_workers=wiring.settings.pool_size * 2, thread_name_prefix="ledger")
    loop = asyncio.get_running_loop()

    desk = TournamentDesk(wiring.ledger.env_for_peers, wiring.ledger)

    def find(token: str) -> Principal | None:
        grant = wiring.ledger.grant_for_token(token)
        if grant is not None:
            return Principal(grant=grant)
        tournament = desk.grant_for_token(token)
        return Principal(tournament=tournament) if tournament is not None else None

    async def lookup(token: str) -> Principal | None:
        return await loop.run_in_executor(executor, find, token)

    resolver = TokenResolver(wiring.admin_token, lookup)
    options = [("grpc.so_reuseport", 1 if wiring.settings.workers > 1 else 0)]
    server = grpc.aio.server(interceptors=[AuthInterceptor(resolver)], options=options)
    hub = EventHub(wiring.database_url, heads=wiring.ledger.heads)
    await hub.start()
    game_service_pb2_grpc.add_GameServiceServicer_to_server(
        GameServicer(wiring.ledger, hub, executor), server
    )
    runners = registry.runners(wiring.ledger.datastore, create_tables=wiring.settings.create_tables)
    projector = None
    if wiring.settings.projections:
        projector = Projector(runners, wiring.database_url)
        projector.start()
    models = ReadModels(wiring.ledger.datastore, runners, executor)
    read_service_pb2_grpc.add_ReplayServiceServicer_to_server(ReplayServicer(wiring.ledger, executor), server)
    read_service_pb2_grpc.add_RatingServiceServicer_to_server(RatingServicer(models), server)
    read_service_pb2_grpc.add_StatsServiceServicer_to_server(StatsServicer(models), server)
    results = [r for r in runners if r.view.name == "tournament_results"]
    tournament_service_pb2_grpc.add_TournamentServiceServicer_to_server(
        TournamentServicer(desk, ReadModels(wiring.ledger.datastore, results, executor), executor), server
    )
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, *READ_SERVICES, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
         reflection.SERVICE_NAME),
        server,
    )
    port = server.add_insecure_port(address)
    await server.start()
    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    for name in READ_SERVICES:
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return Running(server, port, hub, executor, projector)


def serve_worker(settings_json: str, admin_token: str, index: int) -> None:
    """One server process of ``--workers N`` (spawned: pools never cross a fork)."""
    from pydantic import SecretStr

    from services.bootstrap import wire
    from services.settings import Settings

    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s w{index} %(levelname)s %(name)s: %(message)s")
    settings = Settings.model_validate_json(settings_json).model_copy(
        update={"admin_token": SecretStr(admin_token), "projections": False}  # the supervisor runs them
    )
    asyncio.run(serve(wire(settings)))


def serve_workers(wiring: Wiring) -> None:
    """Run ``settings.workers`` processes on one port; stop them all on a signal."""
    import multiprocessing

    settings = wiring.settings.model_copy(update={"database_url": wiring.database_url})
    # Create every table once, here; the workers repeat the DDL under an advisory lock.
    TournamentDesk(wiring.ledger.env_for_peers, wiring.ledger).close()
    for runner in registry.runners(wiring.ledger.datastore, create_tables=wiring.settings.create_tables):
        runner.ensure_tables()
    payload = settings.model_dump_json(exclude={"admin_token"})
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=serve_worker, args=(payload, wiring.admin_token, i))
                 for i in range(settings.workers)]
    for process in processes:
        process.start()
    # The supervisor is otherwise idle: running the views here keeps their
    # CPU (and GIL) out of every serving process.
    projector = None
    if settings.projections:
        projector = Projector(
            registry.runners(wiring.ledger.datastore, create_tables=settings.create_tables), wiring.database_url
        )
        projector.start()
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.is_set() and all(p.is_alive() for p in processes):
        stop.wait(0.5)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(10)
    if projector is not None:
        projector.stop()
    failed = [p.exitcode for p in processes if p.exitcode not in (0, None, -signal.SIGTERM)]
    if failed and not stop.is_set():
        # a worker that died on its own is an outage, not a clean stop
        raise SystemExit(f"a ledger worker exited with {failed[0]}")


async def serve(wiring: Wiring) -> None:
    running = await create_server(wiring, wiring.settings.listen)
    if wiring.settings.metrics_port:
        from prometheus_client import start_http_server

        start_http_server(wiring.settings.metrics_port)
    log.info("ledger listening on port %s", running.port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await running.stop(grace=2.0)
