"""``ledger serve --workers N``: N serving processes on one port, and their supervisor.

Why processes: one CPython process serves on one core at a time (the GIL), so
a machine with more cores than one serves more moves with more processes.  The
workers share the port through ``SO_REUSEPORT``; each is a whole server
(:func:`services.runtime.server.serve`) started by ``spawn``, so no database
pool crosses a fork.  The supervisor itself is otherwise idle, so it runs the
views and the dashboard, keeping their CPU (and GIL) out of every worker.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading

from projections.projector import Projector
from services.runtime.bootstrap import Wiring, view_runners
from services.runtime.metrics_endpoint import serve_metrics, worker_port
from services.runtime.server import serve
from services.tournaments.desk import TournamentDesk


def serve_worker(settings_json: str, admin_token: str, index: int) -> None:
    """One server process of ``--workers N`` (spawned: pools never cross a fork)."""
    from pydantic import SecretStr

    from services.runtime.bootstrap import wire
    from services.runtime.settings import Settings

    logging.basicConfig(
        level=logging.INFO,
        format=f"%(asctime)s w{index} %(levelname)s %(name)s: %(message)s",
    )
    settings = Settings.model_validate_json(settings_json)
    settings = settings.model_copy(
        update={
            "admin_token": SecretStr(admin_token),
            "projections": False,
            "http_listen": "off",
            "metrics_port": worker_port(settings.metrics_port, index),
        }  # the supervisor runs them, and the dashboard, on the base metrics port
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
    if settings.metrics_port:  # the views' metrics; each worker serves its own port
        serve_metrics(settings.metrics_port)
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
        wiring.ledger,
        settings.http_listen,
        settings.read_database_url,
        settings.http_tls,
    )
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.is_set() and all(p.is_alive() for p in processes):
        stop.wait(0.5)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:  # each drains (LEDGER_DRAIN_SECONDS), then stops
        process.join(settings.drain_seconds + 10)
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
