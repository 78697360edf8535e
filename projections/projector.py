"""Follows the log live: every view in one background thread, exactly one runner per view.

Why a thread woken by NOTIFY (or by the process that started it): catching
up is :class:`~projections.runner.ViewRunner`'s job; this only decides when
to step each view, and, with ``exclusive=True``, which process may.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

from projections.runner import TRANSIENT, ViewRunner, ledger_head, wake_channel

log = logging.getLogger(__name__)


ROUND_SPACING = 0.02
"""Seconds from one round's start to the next's, at least.

Why: every commit wakes the projector, and a round is one transaction per
view that has events to apply (a view of the ledger's own events with none
new takes none: :meth:`~projections.runner.ViewRunner.step`).  Stepping on
every wakeup made each view a transaction per move, so the views cost more
per move than the move's own commit.  Waiting out the
spacing lets one round take every move committed meanwhile: measured on the
card game at 32 clients, server CPU per move fell from 2.5 to 1.8 ms and
moves/s rose by a quarter (``docs/performance.md``).  The price is at most
this much more lag for a view, which a read that waits for a log position
(read-your-writes) pays when it arrives just after a round."""

LEADER_LOCK_CLASS = 7303
"""First key of the session advisory lock ``(7303, hashtext(view))`` a view's
active runner holds when ``Projector(exclusive=True)`` (``ledger project``)."""


class Projector:
    """Runs every view in one background thread, woken by the log's NOTIFY.

    ``exclusive=True`` (what ``ledger project`` uses): a view is stepped only
    while this process holds its session advisory lock on a connection of its
    own, so among several workers exactly one runs each view and the others
    stand by, taking over within a second of the holder's connection closing
    (a crash or ``kill -9`` closes it).  Correctness does not depend on it:
    the tracking row's ``FOR UPDATE`` already makes batches exactly-once; the
    lock keeps standbys from queueing on that row.
    """

    def __init__(
        self,
        runners: Sequence[ViewRunner],
        listen_url: str | None,
        channel: str | None = None,
        exclusive: bool = False,
        wake: Any = None,
        spacing: float = ROUND_SPACING,
    ):
        self.runners = list(runners)
        self._listen_url = listen_url
        self._channel = channel or wake_channel(self.runners)
        """What wakes this projector (:func:`~projections.runner.wake_channel`)."""
        self._exclusive = exclusive and listen_url is not None
        self._leader: psycopg.Connection[Any] | None = None
        self._held: set[str] = set()
        self._tried = 0.0
        self._stop = threading.Event()
        self._wake = wake if wake is not None else threading.Event()
        """Set when the log grew: by this projector's LISTEN thread, or by the
        process that started it (``wake``, e.g. a ``multiprocessing.Event``)."""
        self._spacing = spacing
        self._threads: list[threading.Thread] = []
        self._unready: list[ViewRunner] = []
        """Views whose tables could not be checked at start (the database was
        away): the loop sets them up before it steps them."""

    def start(self) -> None:
        """Set up every view's tables and start following the log.

        A database that is away (restarting) when the projector starts is
        waited for by the loop, not raised: the views' process would
        otherwise die at start and never follow the log.

        :raises SetupRequiredError: as :meth:`ViewRunner.ensure_tables`.
        """
        for runner in self.runners:
            try:
                runner.ensure_tables()
            except TRANSIENT as exc:
                log.warning(
                    "view %s waits for the database to set up: %s",
                    runner.view.name,
                    exc,
                )
                self._unready.append(runner)
        self._threads = [
            threading.Thread(target=self._loop, name="projector", daemon=True)
        ]
        if self._listen_url:
            self._threads.append(
                threading.Thread(
                    target=self._listen, name="projector-listen", daemon=True
                )
            )
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(5)
        if self._leader is not None:
            self._leader.close()

    def active(self) -> set[str]:
        """The views this process runs now (every view unless ``exclusive``)."""
        if not self._exclusive:
            return {r.view.name for r in self.runners}
        if time.monotonic() - self._tried < 1.0:
            return self._held
        self._tried = time.monotonic()
        try:
            if self._leader is None or self._leader.closed:
                self._held = set()
                self._leader = psycopg.connect(self._listen_url or "", autocommit=True)
            for runner in self.runners:
                name = runner.view.name
                if name not in self._held:
                    row = self._leader.execute(
                        "SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                        (LEADER_LOCK_CLASS, name),
                    ).fetchone()
                    if row and row[0]:
                        log.info("view %s: this worker is now the active runner", name)
                        self._held.add(name)
            self._leader.execute("SELECT 1")  # a lost session means lost locks
        except psycopg.Error as exc:
            log.warning("views wait for their advisory locks: %s", exc)
            self._held = set()
            if self._leader is not None:
                self._leader.close()
            self._leader = None
        return self._held

    def _set_up_unready(self) -> None:
        for runner in list(self._unready):
            try:
                runner.ensure_tables()
            except TRANSIENT:
                time.sleep(1)
                return
            except Exception:
                log.exception("view %s cannot set up its tables", runner.view.name)
                time.sleep(1)
                return
            self._unready.remove(runner)

    def _loop(self) -> None:
        started = -self._spacing
        while not self._stop.is_set():
            rest = started + self._spacing - time.monotonic()
            if rest > 0 and self._stop.wait(rest):
                break
            started = time.monotonic()
            self._wake.clear()
            busy = False
            if self._unready:
                self._set_up_unready()
            active = self.active()
            head = self._ledger_head()
            for runner in self.runners:
                if runner.view.name not in active or runner in self._unready:
                    continue
                try:
                    busy = runner.step(ledger_head=head) > 0 or busy
                except (
                    OperationalError,
                    InterfaceError,
                    psycopg.OperationalError,
                ) as exc:
                    # the database is down or restarting: one line, not a traceback a second
                    log.warning(
                        "view %s waits for the database: %s", runner.view.name, exc
                    )
                    time.sleep(1)
                except Exception:
                    log.exception("view %s failed a batch; retrying", runner.view.name)
                    time.sleep(1)
            if not busy:
                self._wake.wait(1.0)

    def _ledger_head(self) -> int | None:
        """The round's :func:`~projections.runner.ledger_head`, read once for
        every view; ``None`` (every view takes its transaction, and reports
        the database's trouble itself) when it cannot be read."""
        if not self.runners:
            return None
        first = self.runners[0]
        try:
            return ledger_head(first.datastore, first.events_table)
        except Exception:  # noqa: BLE001 - the steps below log what is wrong
            return None

    def _listen(self) -> None:
        url = self._listen_url
        assert url is not None, "started only with a listen URL"
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self._channel}")
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=1.0):
                            self._wake.set()
            except Exception as exc:  # noqa: BLE001 - reconnect
                log.warning("projector lost its LISTEN connection: %s", exc)
                self._stop.wait(1.0)
