"""The views (``projections/``) in a child process of ``ledger serve``.

Why a child: applying the log to the views costs the serving process about
4-16% of its GIL.  A child process has its own GIL, and ``ledger serve``
stays one command: it starts the child after the tables exist and stops it
with the server.  The child also exits on its own when its parent is gone
(even after ``kill -9``), so it never outlives the server.

Why the parent wakes it: an idle ``ledger serve`` holds at most five
connections.  The child holds one (its pool's); instead of a LISTEN
connection of its own, it is woken through a ``multiprocessing.Event`` that
the server's event hub sets on every notification (every commit notifies),
and it still checks the log each second if a wakeup is lost.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from typing import Any

from services.runtime.settings import Settings

log = logging.getLogger(__name__)
VIEWS_APP_NAME = "ledger serve: views"


@dataclass
class ViewsChild:
    process: BaseProcess
    wake: Event
    """Set it when the log grew (the child clears it before each round)."""


def start(settings: Settings, database_url: str) -> ViewsChild:
    """Spawn the views' process (spawned, not forked: pools never cross a fork)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    wake = context.Event()
    payload = settings.model_copy(update={"database_url": database_url})
    process = context.Process(
        target=run,
        args=(payload.model_dump_json(exclude={"admin_token"}), os.getpid(), wake),
        name="ledger-views",
        daemon=True,
    )
    process.start()
    return ViewsChild(process, wake)


def stop(child: ViewsChild, timeout: float = 10.0) -> None:
    """Ask the child to finish its batch and exit; kill it if it does not."""
    process = child.process
    if process.is_alive():
        process.terminate()  # SIGTERM: the child stops its projector cleanly
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join(timeout)


def run(settings_json: str, parent_pid: int, wake: Event) -> None:
    """The child: run every view until SIGTERM or until the parent is gone."""
    from projections.projector import Projector
    from services.runtime.bootstrap import view_runners

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent
    os.environ["PGAPPNAME"] = VIEWS_APP_NAME  # its connection, in pg_stat_activity
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    settings = Settings.model_validate_json(settings_json)
    ledger = ledger_once_reachable(
        settings, lambda: stopping.is_set() or os.getppid() != parent_pid
    )
    if ledger is None:
        return
    projector = Projector(
        view_runners(ledger.datastore, create_tables=settings.create_tables),
        None,  # no LISTEN connection: the parent's hub sets ``wake``
        wake=wake,
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


def ledger_once_reachable(
    settings: Settings,
    give_up: Callable[[], bool],
    build: Callable[[Settings], Any] | None = None,
    pause: float = 1.0,
) -> Any | None:
    """The child's ledger application, built once the database lets it.

    Why wait: the child starts beside the server, and a database that
    restarted while the child was building (reading the schema's
    fingerprint, say) made it exit for good, leaving every view where it
    was while the server went on serving.  A failed attempt may leave its
    connection pool behind; it takes a database outage during the child's
    first moments to make one.  ``None`` once ``give_up()`` is true (told to
    stop, or the parent is gone) before the database answered.
    """
    from projections.runner import TRANSIENT
    from services.runtime.bootstrap import build_ledger

    make = build or build_ledger
    while True:
        try:
            return make(settings)
        except TRANSIENT as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            log.warning("the views wait for the database: %s", first)
        if give_up():
            return None
        time.sleep(pause)
