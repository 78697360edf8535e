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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ledger.v1 import (
    game_service_pb2,
    game_service_pb2_grpc,
    read_service_pb2,
    read_service_pb2_grpc,
    tournament_service_pb2,
    tournament_service_pb2_grpc,
)
from projections.projector import Projector
from services import organisers, page_tokens, reflection, transport, views_process
from services.auth import AuthInterceptor, Principal, TokenResolver
from services.bootstrap import Wiring, view_runners
from services.db_health import DatabaseWatcher
from services.guard import GuardInterceptor
from services.health import HealthServicer
from services.live import EventHub
from services.metrics import RpcMetricsInterceptor
from services.nats_tail import tail_for
from services.rating_servicer import RatingServicer
from services.read_models import ReadModels
from services.read_replica import read_side
from services.replay_servicer import ReplayServicer
from services.servicer import GameServicer
from services.stats_servicer import StatsServicer
from services.tournament_servicer import TournamentServicer
from services.tournaments import TournamentDesk

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
    watcher: DatabaseWatcher | None = None
    desk: TournamentDesk | None = None
    """The tournament desk the servicers use (the dashboard shares it)."""
    views: views_process.ViewsChild | None = None
    """The views' child process (``LEDGER_VIEWS=child``, the default)."""

    async def stop(self, grace: float = 1.0) -> None:
        await self.server.stop(grace)
        await self.hub.stop()
        if self.watcher is not None:
            await self.watcher.stop()
        if self.projector is not None:
            self.projector.stop()
        if self.views is not None:
            await asyncio.to_thread(views_process.stop, self.views)
        # the executor is the ledger's: GameLedger.close shuts it down


async def create_server(wiring: Wiring, address: str) -> Running:
    executor = wiring.ledger.executor  # one pool for every blocking call
    loop = asyncio.get_running_loop()

    desk = TournamentDesk(wiring.ledger.env_for_peers, wiring.ledger)

    def find(token: str) -> Principal | None:
        grant = wiring.ledger.grant_for_token(token)
        if grant is not None:
            return Principal(grant=grant)
        tournament = desk.grant_for_token(token)
        if tournament is not None:
            return Principal(tournament=tournament)
        if organisers.is_organiser(desk.datastore, token):
            return Principal(organiser=True)
        return None

    async def lookup(token: str) -> Principal | None:
        return await loop.run_in_executor(executor, find, token)

    resolver = TokenResolver(wiring.admin_token, lookup)
    page_tokens.configure(wiring.admin_token)  # every worker signs alike
    options = transport.server_options(wiring.settings)
    guard = GuardInterceptor(wiring.settings.streams_per_connection)
    server = grpc.aio.server(  # metrics first: it times every call, refusals included
        interceptors=[RpcMetricsInterceptor(), guard, AuthInterceptor(resolver)],
        options=options,
    )
    hub = EventHub(
        wiring.database_url, heads=wiring.ledger.heads, tail=tail_for(wiring)
    )
    await hub.start()
    game_service_pb2_grpc.add_GameServiceServicer_to_server(
        GameServicer(wiring.ledger, hub), server
    )
    runners = view_runners(
        wiring.ledger.datastore, create_tables=wiring.settings.create_tables
    )
    projector = views = None
    mode = wiring.settings.views_mode
    if mode == "in-process":
        projector = Projector(runners, wiring.database_url)
        projector.start()
    elif mode == "child":
        for runner in runners:  # reads find the tables before the child starts
            runner.ensure_tables()
        views = views_process.start(wiring.settings, wiring.database_url)
        hub.on_notify = views.wake.set
    models = ReadModels(  # the views on the replica if one is set
        *read_side(wiring, runners), executor, primary=runners[0] if runners else None
    )
    read_service_pb2_grpc.add_ReplayServiceServicer_to_server(
        ReplayServicer(wiring.ledger, executor), server
    )
    read_service_pb2_grpc.add_RatingServiceServicer_to_server(
        RatingServicer(models), server
    )
    read_service_pb2_grpc.add_StatsServiceServicer_to_server(
        StatsServicer(models), server
    )
    results = [r for r in runners if r.view.name == "tournament_results"]
    tournament_service_pb2_grpc.add_TournamentServiceServicer_to_server(
        TournamentServicer(
            desk,
            ReadModels(wiring.ledger.datastore, results, executor),
            executor,
            hub,
        ),
        server,
    )
    health_servicer = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable(
        server,
        (
            SERVICE_NAME,
            *READ_SERVICES,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        ),
    )
    port = server.add_insecure_port(address)
    await server.start()

    async def report(up: bool) -> None:
        status = health_pb2.HealthCheckResponse.SERVING
        if not up:
            status = health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME, *READ_SERVICES):
            await health_servicer.set(name, status)

    await report(True)
    watcher = DatabaseWatcher(
        wiring.database_url,
        wiring.settings.health_interval,
        (wiring.ledger.datastore, desk.datastore),
        report,
    )
    await watcher.start()
    return Running(server, port, hub, executor, projector, watcher, desk, views)


def serve_worker(settings_json: str, admin_token: str, index: int) -> None:
    """One server process of ``--workers N`` (spawned: pools never cross a fork)."""
    from pydantic import SecretStr

    from services.bootstrap import wire
    from services.settings import Settings

    logging.basicConfig(
        level=logging.INFO,
        format=f"%(asctime)s w{index} %(levelname)s %(name)s: %(message)s",
    )
    settings = Settings.model_validate_json(settings_json).model_copy(
        update={
            "admin_token": SecretStr(admin_token),
            "projections": False,
            "http_listen": "off",
        }  # the supervisor runs them, and the dashboard
    )
    asyncio.run(serve(wire(settings)))


def serve_workers(wiring: Wiring) -> None:
    """Run ``settings.workers`` processes on one port; stop them all on a signal."""
    import multiprocessing

    settings = wiring.settings.model_copy(update={"database_url": wiring.database_url})
    # Create every table once, here; the workers repeat the DDL under an advisory lock.
    TournamentDesk(wiring.ledger.env_for_peers, wiring.ledger).close()
    for runner in view_runners(
        wiring.ledger.datastore, create_tables=wiring.settings.create_tables
    ):
        runner.ensure_tables()
    payload = settings.model_dump_json(exclude={"admin_token"})
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=serve_worker, args=(payload, wiring.admin_token, i))
        for i in range(settings.workers)
    ]
    for process in processes:
        process.start()
    # The supervisor is otherwise idle: running the views here keeps their
    # CPU (and GIL) out of every serving process.
    projector = None
    if settings.views_mode != "off":
        projector = Projector(
            view_runners(wiring.ledger.datastore, create_tables=settings.create_tables),
            wiring.database_url,
        )
        projector.start()
    from services.dashboard.serve import start_in_thread

    stop_dashboard = start_in_thread(
        wiring.ledger, settings.http_listen, settings.read_database_url
    )
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
    if stop_dashboard is not None:
        stop_dashboard()
    failed = [
        p.exitcode for p in processes if p.exitcode not in (0, None, -signal.SIGTERM)
    ]
    if failed and not stop.is_set():
        # a worker that died on its own is an outage, not a clean stop
        raise SystemExit(f"a ledger worker exited with {failed[0]}")


async def serve(
    wiring: Wiring, on_ready: Callable[[Running], None] | None = None
) -> None:
    """Serve until SIGINT/SIGTERM; ``on_ready`` runs once the port is bound."""
    from services.dashboard.serve import DashboardBindError
    from services.dashboard.serve import start as start_dashboard

    running = await create_server(wiring, wiring.settings.listen)
    try:
        http = await start_dashboard(
            wiring.ledger,
            wiring.settings.http_listen,
            running.desk,
            wiring.settings.read_database_url,
        )
    except DashboardBindError as exc:
        await running.stop()
        raise SystemExit(str(exc)) from None
    if wiring.settings.metrics_port:
        from prometheus_client import start_http_server

        start_http_server(wiring.settings.metrics_port)
    log.info("ledger listening on port %s", running.port)
    if on_ready is not None:
        on_ready(running)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    if http is not None:
        await http.stop()
    await running.stop(grace=2.0)
