"""The views (``projections/``) in a child process of ``ledger serve``.

Why a child: applying the log to the views costs the serving process about
4-16% of its GIL.  A child process has its own GIL, and ``ledger serve``
stays one command: it starts the child after the tables exist and stops it
with the server.  The child also exits on its own when its parent is gone
(even after ``kill -9``), so it never outlives the server.  It holds two
connections when idle (its pool's one and the LISTEN one), the same two the
in-process views used.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from multiprocessing.process import BaseProcess

from services.settings import Settings

log = logging.getLogger(__name__)


def start(settings: Settings, database_url: str) -> BaseProcess:
    """Spawn the views' process (spawned, not forked: pools never cross a fork)."""
    import multiprocessing

    payload = settings.model_copy(update={"database_url": database_url})
    process = multiprocessing.get_context("spawn").Process(
        target=run,
        args=(payload.model_dump_json(exclude={"admin_token"}), os.getpid()),
        name="ledger-views",
        daemon=True,
    )
    process.start()
    return process


def stop(process: BaseProcess, timeout: float = 10.0) -> None:
    """Ask the child to finish its batch and exit; kill it if it does not."""
    if process.is_alive():
        process.terminate()  # SIGTERM: the child stops its projector cleanly
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join(timeout)


def run(settings_json: str, parent_pid: int) -> None:
    """The child: run every view until SIGTERM or until the parent is gone."""
    from projections.runner import Projector
    from services.bootstrap import build_ledger, view_runners

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    settings = Settings.model_validate_json(settings_json)
    ledger = build_ledger(settings)
    projector = Projector(
        view_runners(ledger.datastore, create_tables=settings.create_tables),
        settings.database_url,
    )
    projector.start()
    try:
        while not stopping.wait(1.0):
            if os.getppid() != parent_pid:
                log.warning("ledger serve is gone: the views stop")
                break
    finally:
        projector.stop()
        ledger.close()
