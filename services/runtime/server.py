"""One serving process: the gRPC API, and what runs beside it until a signal.

``create_server(wiring, address)`` returns a :class:`Running` whose ``port``
is the one bound, so tests can bind ``127.0.0.1:0``; ``serve`` runs until a
signal.  We use ``grpc.aio`` so a live stream costs a coroutine, not a
thread; the synchronous ledger runs in a thread pool sized to the database
pool.  What a call meets is :mod:`services.api.grpc_server`; the
``--workers N`` supervisor is :mod:`services.runtime.supervisor`.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import grpc

from projections.projector import Projector
from projections.runner import wake_channel
from services.api import grpc_server
from services.api.read_rpc import ReadModels
from services.ledger.head_signer import checkpoint_every
from services.ledger.timekeeper import Timekeeper
from services.live.listen_hub import EventHub
from services.live.nats_tail import tail_for
from services.runtime import views_process
from services.runtime.bootstrap import Wiring, view_runners
from services.runtime.collector import CollectorSchedule
from services.runtime.metrics_endpoint import serve_metrics
from services.runtime.settings import Settings
from services.storage.database_watcher import DatabaseWatcher
from services.storage.group_commit import LoopCommitter
from services.storage.read_replica import read_side
from services.tournaments.desk import TournamentDesk
from services.tournaments.round_scheduler import RoundScheduler

if TYPE_CHECKING:  # the web stack loads only when the dashboard is on
    from services.dashboard.serve import Http

log = logging.getLogger(__name__)


@dataclass
class Running:
    server: grpc.aio.Server
    port: int
    hub: EventHub
    executor: ThreadPoolExecutor
    report: Callable[[bool], Awaitable[None]]
    """Sets every service's health to SERVING (True) or NOT_SERVING (False)."""
    projector: Projector | None = None
    watcher: DatabaseWatcher | None = None
    desk: TournamentDesk | None = None
    """The tournament desk the servicers use (the dashboard shares it)."""
    views: views_process.ViewsChild | None = None
    """The views' child process (``LEDGER_VIEWS=child``, the default)."""
    timekeeper: Timekeeper | None = None
    """Records timeouts of games whose clock ran out (``LEDGER_TIMEKEEPER_INTERVAL``)."""
    drain: Callable[[float], Awaitable[None]] | None = None
    """Drains the API and stops it (:mod:`services.api.drain`)."""
    committer: LoopCommitter | None = None
    """Commits the moves decided on this loop (closed once the API has drained)."""
    rounds: RoundScheduler | None = None
    """Starts automatic tournament rounds (``LEDGER_ROUND_SCHEDULER_INTERVAL``)."""
    checkpoints: asyncio.Task[None] | None = None
    """Signs a checkpoint every ``LEDGER_CHECKPOINT_INTERVAL`` seconds."""
    dashboard: str | None = None
    """The dashboard's URL once it serves (announced for play links)."""

    async def stop(self, grace: float = 1.0) -> None:
        """Drain the API within ``grace`` seconds, then stop what runs beside it."""
        if self.checkpoints is not None:
            self.checkpoints.cancel()
        if self.timekeeper is not None:
            await self.timekeeper.stop()
        if self.rounds is not None:
            await self.rounds.stop()
        if self.watcher is not None:  # no more health reports: the drain owns it
            await self.watcher.stop()
        if self.drain is not None:
            await self.drain(grace)
        else:
            await self.server.stop(grace)
        if self.committer is not None:
            await self.committer.close()
        await self.hub.stop()
        if self.projector is not None:
            self.projector.stop()
        if self.views is not None:
            await asyncio.to_thread(views_process.stop, self.views)
        # the executor is the ledger's: GameLedger.close shuts it down


def grpc_credentials(settings: Settings) -> grpc.ServerCredentials | None:
    """TLS from ``LEDGER_GRPC_TLS_CERT``/``_KEY`` (mutual with ``_CLIENT_CA``), or None."""
    if settings.grpc_tls_cert is None or settings.grpc_tls_key is None:
        return None
    from services.api.transport import server_credentials

    return server_credentials(
        settings.grpc_tls_cert, settings.grpc_tls_key, settings.grpc_tls_client_ca
    )


async def create_server(
    wiring: Wiring, address: str, report_serving: bool = True
) -> Running:
    """The API on ``address`` and what runs beside it: the live hub, the views, the watcher.

    With ``report_serving`` off, health stays NOT_SERVING until the caller
    calls ``Running.report(True)`` (``serve`` does, once the dashboard runs
    and the server's address is written where clients look for it).
    """
    desk = TournamentDesk(wiring.ledger.env_for_peers, wiring.ledger)
    hub = EventHub(
        wiring.database_url,
        heads=wiring.ledger.heads,
        tail=tail_for(wiring),
        datastore=wiring.ledger.datastore,
    )
    hub.woken_by_commits(wiring.ledger)
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
        hub.wake_on(wake_channel(runners), views.wake.set)
    await hub.start()
    committer = wiring.ledger.commit_on_this_loop()
    executor = wiring.ledger.executor
    models = ReadModels(  # the views on the replica if one is set
        *read_side(wiring, runners), executor, primary=runners[0] if runners else None
    )
    results = [r for r in runners if r.view.name == "tournament_results"]
    settings = wiring.settings
    api = await grpc_server.start(
        wiring.ledger,
        desk,
        hub,
        models,
        ReadModels(wiring.ledger.datastore, results, executor),
        wiring.admin_token,
        grpc_server.Limits(
            settings.workers,
            settings.pending_calls,
            settings.streams_per_connection,
            grpc_credentials(settings),
        ),
        address,
    )
    watcher = DatabaseWatcher(
        wiring.database_url,
        settings.health_interval,
        (wiring.ledger.datastore, desk.datastore),
        api.report,
        timeout=settings.db_wait_seconds,
    )
    await watcher.start()
    timekeeper = None
    if settings.timekeeper_interval:
        timekeeper = Timekeeper(wiring.ledger, settings.timekeeper_interval)
        timekeeper.start()
    rounds = None
    if settings.round_scheduler_interval:
        rounds = RoundScheduler(desk, settings.round_scheduler_interval)
        rounds.start()
    checkpoints = None
    if settings.checkpoint_interval:
        checkpoints = asyncio.create_task(
            checkpoint_every(
                wiring.ledger.head_signer,
                settings.checkpoint_interval,
                wiring.ledger.io,
            )
        )
    if report_serving:
        await api.report(True)
    return Running(
        api.server,
        api.port,
        hub,
        executor,
        api.report,
        projector,
        watcher,
        desk,
        views,
        timekeeper,
        api.drain,
        committer,
        rounds,
        checkpoints,
    )


async def serve(
    wiring: Wiring, on_ready: Callable[[Running], None] | None = None
) -> None:
    """Serve until SIGINT/SIGTERM; ``on_ready`` runs once the port is bound."""
    from services.dashboard.address import parse_listen

    if wiring.settings.metrics_port:  # first: a port in use fails before anything runs
        serve_metrics(wiring.settings.metrics_port)
    running = await create_server(wiring, wiring.settings.listen, report_serving=False)
    http: Http | None = None
    if parse_listen(wiring.settings.http_listen) is not None:
        # only now the web stack: a server without its dashboard never loads it
        from services.dashboard.serve import DashboardBindError
        from services.dashboard.serve import start as start_dashboard

        try:
            http = await start_dashboard(
                wiring.ledger,
                wiring.settings.http_listen,
                running.desk,
                wiring.settings.read_database_url,
                wiring.settings.http_tls,
            )
        except DashboardBindError as exc:
            await running.stop()
            raise SystemExit(str(exc)) from None
        if http is not None:
            running.dashboard = http.url
    log.info("ledger listening on port %s", running.port)
    if on_ready is not None:
        on_ready(running)
    await running.report(True)
    collector = CollectorSchedule()
    collector.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info(
        "draining: up to %ss for the calls in flight", wiring.settings.drain_seconds
    )
    if http is not None:
        await http.stop()
    await running.stop(grace=wiring.settings.drain_seconds)
    await collector.stop()
