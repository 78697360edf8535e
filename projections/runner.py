"""Runs views over the ledger's log: catch up in batches, then follow live.

Exactly-once, even with several runners and crashes:

- each batch is one transaction that locks the view's tracking row
  (``SELECT ... FOR UPDATE``), reads events after the tracked position,
  applies them and moves the position; a second runner blocks on the lock and
  then sees the new position, so it cannot apply the same events again;
- a crash mid-batch rolls the whole batch back, rows and position together;
- the event store takes a table lock for each insert, so notification ids
  become visible in order and reading ``> position`` never skips an event
  that commits later.

A view that reads only the ledger's own events (every view today: games
created and concluded) is not stepped while none of them has arrived:
the projector reads where the log's ledger events end once per round, for
every view, and a view already past that point takes no transaction, where
it took one that locked, read nothing, moved its position to the head and
waited for its commit to reach the disk.  Its tracked position is then moved
to the head at most once a second, and :meth:`ViewRunner.status` reports
where it really is: every event of its topics up to the head is applied, so
a read that waits for a position (read-your-writes) is not held back by
moves the view would not have read.

An event the log cannot mean (a second ``GameConcluded``, or any event of a
game after its conclusion, which only a superuser writing past the ledger
can append) stops *that game* in the view, not the view: the event and every
later one of that game are left out, the game is recorded in
``projection_game_stops`` with one log line (the alarm: ``ledger projections
status``, the health service's list and ``ledger_projection_games_stopped``
read it), and every other game goes on being applied.  Without it a
hash-correct second conclusion was applied like the first: two rating
changes for one game, and nothing said so.

Any other event a view cannot apply (its own failure on a strange event)
stops the view, not the process: the
failing batch is retried one event per transaction to find the event, the
view's position moves to just before it, the stop is recorded in the
tracking row (``stalled_at``, ``stalled_reason``: ``ledger projections
status``, the health service's list and ``ledger_projection_stalled`` read
it) and logged once, without a traceback.  The view keeps answering from
what it has; it tries again once per process start, and ``ledger
projections rebuild`` clears the stop.  Database outages are not poison:
they propagate, and the projector waits for the database.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError, ProgrammingError
from prometheus_client import REGISTRY, Gauge
from prometheus_client.core import GaugeMetricFamily

from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE, LEDGER_TYPE_PREFIX
from projections.base import LogEvent, View, ViewNotReadyError

log = logging.getLogger(__name__)

TRACKING_DDL = """
CREATE TABLE IF NOT EXISTS projection_tracking (
    view text PRIMARY KEY,
    position bigint NOT NULL DEFAULT 0,
    schema_version int NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    stalled_at bigint,
    stalled_reason text
);
CREATE TABLE IF NOT EXISTS projection_game_stops (
    view text NOT NULL,
    game_id uuid NOT NULL,
    position bigint NOT NULL,
    reason text NOT NULL,
    stopped_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (view, game_id)
);
"""

STALL_COLUMNS_DDL = """
ALTER TABLE projection_tracking ADD COLUMN IF NOT EXISTS stalled_at bigint;
ALTER TABLE projection_tracking ADD COLUMN IF NOT EXISTS stalled_reason text;
"""
"""The upgrade of a tracking table from before stops were recorded; run only
when a column is missing, since ``ALTER TABLE`` takes the table's exclusive
lock even when there is nothing to add (every view start would queue behind
the reads that wait on positions, and they behind it)."""

LEDGER_TOPICS = f"starts_with(topic, '{LEDGER_TYPE_PREFIX}')"
"""The predicate of the log's partial index of the ledger's own events."""

VIEWS_CHANNEL = "ledger_views"
"""The channel a commit that holds any of the ledger's own events notifies.

Why a channel of its own: the log's channel (``ledger_events``) is notified
by every commit, nearly all of them moves, and a projector woken by each one
ran a round (a statement, a wakeup of its process) per move to learn that
views of the ledger's own events had nothing to apply."""

LOG_CHANNEL = "ledger_events"
"""The channel every commit to the log notifies (eventsourcing's, named after
the events table)."""

LAG = Gauge(
    "ledger_projection_lag_events",
    "Events in the log not yet applied by the view",
    ["view"],
)
POSITION = Gauge(
    "ledger_projection_position", "Last log position applied by the view", ["view"]
)
LISTED_STOPS = 20
"""Stopped games a status lists by name (all are counted)."""


class ViewAlarms:
    """``ledger_projection_stalled`` and ``ledger_projection_games_stopped``,
    read from the database at each scrape.

    Why not gauges the runner sets: the runner sets them in the process that
    applies the log, and with the default views child that is not the
    process whose metrics port is scraped, so the alarm had no value where
    anyone looked.  Every process that builds a view's runner (the server
    for its reads, the child, ``ledger project``) reports the view's state
    as the tracking tables hold it, so the alarm is on every metrics port
    whatever runs the views.
    """

    def __init__(self) -> None:
        self.runners: dict[str, weakref.WeakSet[ViewRunner]] = {}
        """Every live runner of each view: the first that answers is read."""

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        stalled = GaugeMetricFamily(
            "ledger_projection_stalled",
            "1 while the view is stopped at a log event it cannot apply, else 0",
            labels=["view"],
        )
        games = GaugeMetricFamily(
            "ledger_projection_games_stopped",
            "Games the view stopped applying: an event after their conclusion",
            labels=["view"],
        )
        for name, runners in sorted(self.runners.items()):
            for runner in list(runners):
                try:
                    status = runner.status()
                except Exception:  # noqa: BLE001 - a scrape must answer while the database is down
                    continue
                stalled.add_metric([name], 0 if status.stalled is None else 1)
                games.add_metric([name], status.stopped_count)
                break
        yield stalled
        yield games


ALARMS = ViewAlarms()
REGISTRY.register(ALARMS)

TRANSIENT = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
"""The database is down or restarting: wait, never a reason to stop a view."""

MAX_REASON = 500

IDLE_ADVANCE_S = 1.0
"""How often, at most, a view with nothing of its topics to apply still moves
its tracked position to the head (see the module docstring).

Why at all: the tracked position is what an operator, a replica's reader or
an older tool sees in ``projection_tracking``; a second behind the head there
is one write a second, where a write per round (up to fifty a second, each
waiting for its commit to reach the disk) was most of the views' cost."""


class SetupRequiredError(RuntimeError):
    """Raised when the service may not create tables (``LEDGER_CREATE_TABLES=false``)
    and the database lacks a table, a view's tracking row or a grant:
    the owner must run ``ledger db setup`` first."""


@dataclass(frozen=True)
class Stall:
    """Where a view stopped: the log position of the event it cannot apply, and why."""

    position: int
    reason: str


class ApplyFailedError(Exception):
    """Raised when a view's ``apply`` fails on a batch for a reason other than
    the database being unreachable."""

    def __init__(self, position: int, events: Sequence[LogEvent], error: Exception):
        super().__init__(str(error))
        self.position = position
        """The view's position when the batch was read."""
        self.events = events
        self.error = error


@dataclass(frozen=True)
class GameStop:
    """A game the view stopped applying: the log position of the first event
    it left out, and why."""

    game_id: Any
    position: int
    reason: str


@dataclass(frozen=True)
class ViewStatus:
    view: str
    position: int
    """Every event of the view's topics up to here is applied (at or past
    the tracked position: events of other topics count as applied)."""
    head: int
    stalled: Stall | None = None
    stopped_games: tuple[GameStop, ...] = ()
    """The games this view stopped applying (at most :data:`LISTED_STOPS`)."""
    stopped_count: int = 0
    """How many games it stopped applying in all."""

    @property
    def lag(self) -> int:
        return max(0, self.head - self.position)


class ViewRunner:
    """Applies the log to one view."""

    def __init__(
        self,
        datastore: Any,
        view: View,
        events_table: str = "ledger_events",
        batch_size: int = 500,
        create_tables: bool = True,
    ):
        self.datastore = datastore
        self.view = view
        self.events_table = events_table
        self.batch_size = batch_size
        self.create_tables = create_tables
        """False: :meth:`ensure_tables` only checks (no DDL, for a role that owns nothing)."""
        self._retry_stall = True
        """A recorded stop is tried once more by each new runner (a process
        start), then left alone until a rebuild."""
        self._ledger_only = bool(view.topics) and all(
            t.startswith(LEDGER_TYPE_PREFIX) for t in view.topics
        )
        """Reads only the ledger's own events, which the log's partial index
        finds without reading the moves between them."""
        self._stepped_at = -IDLE_ADVANCE_S
        """``time.monotonic()`` of this runner's last transaction."""
        ALARMS.runners.setdefault(view.name, weakref.WeakSet()).add(self)
        self._new_stops: list[str] = []
        """Alarms of games stopped by the batch in progress, logged once it commits."""
        self._through: int | None = None
        """The position this runner's last batch committed: the view has
        applied everything up to it (a rebuild elsewhere only moves the
        tracked position past it again)."""

    @property
    def ledger_only(self) -> bool:
        """Whether this view reads only the ledger's own events (games created,
        ended, concluded), so :data:`VIEWS_CHANNEL` is enough to wake it."""
        return self._ledger_only

    def ensure_tables(self) -> None:
        """Create tables; rebuild from scratch if the view's schema version changed.

        With ``create_tables=False`` nothing is created or reset: the view's
        tracking row must exist at the current schema version.

        :raises SetupRequiredError: when ``create_tables=False`` and it does not.
        """
        if not self.create_tables:
            self._check_ready()
            return
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(7302)")
            curs.execute(TRACKING_DDL)
            curs.execute(
                "SELECT count(*) AS n FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
                " AND table_name = 'projection_tracking'"
                " AND column_name IN ('stalled_at', 'stalled_reason')"
            )
            if curs.fetchone()["n"] < 2:
                curs.execute(STALL_COLUMNS_DDL)
            self._create_ledger_topics_index(curs)
            self.view.create(curs)
            row = self._tracking(curs)
            if row is None:
                curs.execute(
                    "INSERT INTO projection_tracking (view, position, schema_version) VALUES (%s, 0, %s)",
                    (self.view.name, self.view.schema_version),
                )
            elif row["schema_version"] != self.view.schema_version:
                log.warning("view %s changed schema: rebuilding", self.view.name)
                self.view.reset(curs)
                curs.execute(
                    "UPDATE projection_tracking SET position = 0, schema_version = %s,"
                    " stalled_at = NULL, stalled_reason = NULL WHERE view = %s",
                    (self.view.schema_version, self.view.name),
                )

    def _tracking(self, curs: Any, *, lock: bool = False) -> dict[str, Any] | None:
        """This view's tracking row, if any (locked until commit with ``lock``)."""
        curs.execute(
            "SELECT position, schema_version, stalled_at, stalled_reason"
            " FROM projection_tracking WHERE view = %s"
            + (" FOR UPDATE" if lock else ""),
            (self.view.name,),
        )
        row: dict[str, Any] | None = curs.fetchone()
        return row

    def _head(self, curs: Any) -> int:
        """The log's last position (0 when empty)."""
        curs.execute(
            f"SELECT coalesce(max(notification_id), 0) AS head FROM {self.events_table}"
        )
        head: int = curs.fetchone()["head"]
        return head

    def _create_ledger_topics_index(self, curs: Any) -> None:
        """An index of the log's ``ledger.*`` events (two per game) by position.

        Why: the views that read only ``GameCreated``/``GameConcluded`` asked
        for the next 500 of them, and PostgreSQL answered by reading and
        sorting every event up to the head (half a second for 200,000 events,
        per batch).  Partial, so a move adds nothing to it.  Why here and not
        with the table: only the views read it, and a log without it still
        works, only slower.  Building it on an existing log locks writes while
        it is built (once; see docs/decisions.md).
        """
        name = f"{self.events_table}_ledger_topics"
        curs.execute("SELECT to_regclass(%s) AS found", (name,))
        if curs.fetchone()["found"] is None:
            curs.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {self.events_table} (notification_id)"
                f" WHERE {LEDGER_TOPICS}"
            )

    def _check_ready(self) -> None:
        try:
            with self.datastore.transaction(commit=False) as curs:
                row = self._tracking(curs)
        except (
            psycopg.ProgrammingError,
            ProgrammingError,
        ) as exc:  # no table or no grant
            raise SetupRequiredError(
                f"view {self.view.name}: {exc}; run `ledger db setup`"
            ) from None
        if row is None or row["schema_version"] != self.view.schema_version:
            found = (
                "no tracking row"
                if row is None
                else f"schema version {row['schema_version']}"
            )
            raise SetupRequiredError(
                f"view {self.view.name} needs schema version {self.view.schema_version}, the database has "
                f"{found}; run `ledger db setup` as the owner (it creates and rebuilds views)"
            )

    def step(
        self,
        before_commit: Callable[[], None] | None = None,
        ledger_head: int | None = None,
    ) -> int:
        """Apply one batch; returns how many log positions it advanced.

        A batch the view cannot apply is retried one event at a time; the
        event that still fails stops the view (see the module docstring).

        ``ledger_head``: the log's last ledger event (:func:`ledger_head`),
        read once per round for every view.  A view of ledger events that
        has already been stepped past it has nothing to apply: it takes no
        transaction (but for one a second, :data:`IDLE_ADVANCE_S`) and
        returns 0.
        """
        if (
            ledger_head is not None
            and self._ledger_only
            and self._through is not None
            and ledger_head <= self._through
            and time.monotonic() - self._stepped_at < IDLE_ADVANCE_S
        ):
            LAG.labels(self.view.name).set(0)
            return 0
        self._stepped_at = time.monotonic()
        try:
            return self._step(self.batch_size, before_commit)
        except ApplyFailedError as failed:
            return self._isolate(failed, before_commit)

    def _step(self, limit: int, before_commit: Callable[[], None] | None) -> int:
        self._new_stops = []
        with self.datastore.transaction(commit=True) as curs:
            row = self._tracking(curs, lock=True)
            assert row is not None, "stepped before ensure_tables"
            position = row["position"]
            head = self._head(curs)
            if row["stalled_at"] is not None and not self._retry_stall:
                LAG.labels(self.view.name).set(max(0, head - position))
                return 0
            params: list[Any] = [position, head]
            sql = (
                f"SELECT notification_id, originator_id, originator_version, topic, state FROM {self.events_table}"
                " WHERE notification_id > %s AND notification_id <= %s"
            )
            if self.view.topics:
                if all(t.startswith(LEDGER_TYPE_PREFIX) for t in self.view.topics):
                    sql += f" AND {LEDGER_TOPICS}"  # a literal: lets the partial index serve
                sql += " AND topic = ANY(%s)"
                params.append(list(self.view.topics))
            sql += " ORDER BY notification_id LIMIT %s"
            params.append(limit)
            curs.execute(sql, params)
            rows = curs.fetchall()
            events = self._meaningful(
                curs,
                [
                    LogEvent(
                        r["notification_id"],
                        r["originator_id"],
                        r["originator_version"],
                        r["topic"],
                        bytes(r["state"]),
                    )
                    for r in rows
                ],
            )
            if events:
                try:
                    self.view.apply(curs, events)
                except (*TRANSIENT, ViewNotReadyError):
                    raise
                except Exception as exc:  # a view's own failure: find the event
                    raise ApplyFailedError(position, events, exc) from exc
            full = len(rows) == limit
            new_position = rows[-1]["notification_id"] if full else head
            if new_position != position or row["stalled_at"] is not None:
                curs.execute(
                    "UPDATE projection_tracking SET position = %s, updated_at = now(),"
                    " stalled_at = NULL, stalled_reason = NULL WHERE view = %s",
                    (new_position, self.view.name),
                )
            if before_commit is not None:
                before_commit()
        self._through = new_position
        for alarm in self._new_stops:
            log.error(alarm)
        if row["stalled_at"] is not None:
            log.warning("view %s applies the log again", self.view.name)
        POSITION.labels(self.view.name).set(new_position)
        LAG.labels(self.view.name).set(max(0, head - new_position))
        return int(new_position - position)

    def _meaningful(self, curs: Any, events: list[LogEvent]) -> list[LogEvent]:
        """``events`` less those of games the log has already concluded.

        An event of a game at a version past its first ``GameConcluded`` has
        no meaning (the ledger writes nothing after a conclusion): it and the
        game's later events are left out, and the game is recorded as
        stopped, with one log line the first time.  One statement finds the
        games already stopped and each game's first conclusion, only for
        events that could follow one (a game's creation cannot).
        """
        later = [e for e in events if e.type != CREATED_TYPE]
        if not later:
            return events
        curs.execute(
            "SELECT g.id, s.position AS stopped,"
            f" (SELECT min(originator_version) FROM {self.events_table} c"
            "   WHERE c.originator_id = g.id AND c.topic = %s) AS concluded"
            " FROM unnest(%s::uuid[]) AS g(id)"
            " LEFT JOIN projection_game_stops s ON s.view = %s AND s.game_id = g.id",
            (CONCLUDED_TYPE, sorted({e.game_id for e in later}), self.view.name),
        )
        found = {r["id"]: r for r in curs.fetchall()}
        stopped = {g for g, r in found.items() if r["stopped"] is not None}
        kept = []
        for event in events:
            row = found.get(event.game_id)
            if event.game_id in stopped:
                continue
            if (
                event.type != CREATED_TYPE
                and row is not None
                and row["concluded"] is not None
                and event.version > row["concluded"]
            ):
                stopped.add(event.game_id)
                self._stop_game(curs, event, int(row["concluded"]))
                continue
            kept.append(event)
        return kept

    def _stop_game(self, curs: Any, event: LogEvent, concluded: int) -> None:
        reason = (
            f"{event.type} (version {event.version}) of game {event.game_id} at "
            f"log position {event.position} follows its conclusion (version "
            f"{concluded}): the game's later events are left out"
        )[:MAX_REASON]
        curs.execute(
            "INSERT INTO projection_game_stops (view, game_id, position, reason)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING game_id",
            (self.view.name, event.game_id, event.position, reason),
        )
        if curs.fetchone() is not None:
            self._new_stops.append(
                f"view {self.view.name} stopped applying game {event.game_id}: "
                f"{reason}; every other game is applied (`ledger projections "
                f"status`; `ledger audit {event.game_id}`)"
            )

    def _isolate(
        self, failed: ApplyFailedError, before_commit: Callable[[], None] | None
    ) -> int:
        """Apply the failed batch one event per transaction; stop at the one
        that fails twice in a row (a failure that goes away was not poison)."""
        start, last = failed.position, failed.events[-1].position
        advanced = 0
        attempts = 0
        while attempts < 2:
            try:
                moved = self._step(1, before_commit)
            except ApplyFailedError as single:
                failed, attempts = single, attempts + 1
                continue
            attempts = 0
            advanced += moved
            if moved == 0 or start + advanced >= last:
                return advanced
        self._stop_at(failed)
        return advanced

    def _stop_at(self, failed: ApplyFailedError) -> None:
        (event,) = failed.events
        first_line = (str(failed.error).strip().splitlines() or [""])[0]
        reason = (
            f"cannot apply {event.type} (version {event.version}) of game "
            f"{event.game_id} at log position {event.position}: "
            f"{type(failed.error).__name__}: {first_line}"
        )[:MAX_REASON]
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                "UPDATE projection_tracking SET position = %s, stalled_at = %s,"
                " stalled_reason = %s, updated_at = now()"
                " WHERE view = %s AND position = %s",
                (
                    event.position - 1,
                    event.position,
                    reason,
                    self.view.name,
                    failed.position,
                ),
            )
        self._retry_stall = False
        POSITION.labels(self.view.name).set(event.position - 1)
        log.error(
            "view %s stopped at log position %d: %s; it keeps serving what it "
            "has (`ledger projections status`; `ledger audit %s`)",
            self.view.name,
            event.position,
            reason,
            event.game_id,
        )

    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply everything committed so far; ``progress(position, head)`` per batch."""
        total = 0
        while True:
            advanced = self.step()
            total += advanced
            if progress is not None:
                status = self.status()
                progress(status.position, status.head)
            if advanced == 0:
                return total

    def status(self) -> ViewStatus:
        """Where the view is (see :class:`ViewStatus`), the log's head, and its stop."""
        with self.datastore.transaction(commit=False) as curs:
            row = self._tracking(curs)
            head = self._head(curs)
            position = row["position"] if row else 0
            if row and self._ledger_only and position < head:
                # events commit in position order, so every event up to the
                # head read above is visible to this statement
                curs.execute(
                    f"SELECT min(notification_id) AS next FROM {self.events_table}"
                    f" WHERE notification_id > %s AND notification_id <= %s"
                    f" AND {LEDGER_TOPICS} AND topic = ANY(%s)",
                    (position, head, list(self.view.topics)),
                )
                pending = curs.fetchone()["next"]
                position = head if pending is None else pending - 1
            curs.execute(
                "SELECT game_id, position, reason, count(*) OVER () AS n"
                " FROM projection_game_stops WHERE view = %s"
                " ORDER BY position LIMIT %s",
                (self.view.name, LISTED_STOPS),
            )
            stops = curs.fetchall()
        stalled = (
            Stall(row["stalled_at"], row["stalled_reason"] or "")
            if row and row["stalled_at"] is not None
            else None
        )
        return ViewStatus(
            self.view.name,
            position,
            head,
            stalled,
            tuple(GameStop(s["game_id"], s["position"], s["reason"]) for s in stops),
            stops[0]["n"] if stops else 0,
        )

    def reset(self) -> None:
        with self.datastore.transaction(commit=True) as curs:
            self._tracking(curs, lock=True)
            self.view.reset(curs)
            curs.execute(
                "UPDATE projection_tracking SET position = 0, stalled_at = NULL,"
                " stalled_reason = NULL WHERE view = %s",
                (self.view.name,),
            )
            curs.execute(
                "DELETE FROM projection_game_stops WHERE view = %s", (self.view.name,)
            )
        self._through = None
        self._retry_stall = True


def ledger_head(datastore: Any, events_table: str = "ledger_events") -> int:
    """The log position of the last ledger event (a game created, ended or
    concluded), 0 for none: what :meth:`ViewRunner.step` compares a view of
    ledger events with.  One statement, outside any transaction, served by the
    log's partial index of those events."""
    with datastore.get_connection() as conn:
        row = conn.execute(
            f"SELECT coalesce(max(notification_id), 0) AS head FROM {events_table}"
            f" WHERE {LEDGER_TOPICS}"
        ).fetchone()
    return int(row["head"])


def wake_channel(runners: Sequence[ViewRunner]) -> str:
    """The channel whose notifications should wake a projector of ``runners``:
    :data:`VIEWS_CHANNEL` when every view reads only the ledger's own events,
    else the log's, which every commit notifies."""
    if runners and all(r.ledger_only for r in runners):
        return VIEWS_CHANNEL
    return runners[0].events_table.replace(".", "_") if runners else LOG_CHANNEL


def wait_for_position(
    runners: Sequence[ViewRunner], position: int, timeout: float
) -> bool:
    """Read-your-writes: block until every view has applied ``position`` (or
    time out, or a view stopped before it: it will not get there by waiting)."""
    deadline = time.monotonic() + timeout
    while True:
        statuses = [r.status() for r in runners]
        if all(s.position >= position for s in statuses):
            return True
        if any(s.stalled and s.stalled.position <= position for s in statuses):
            return False
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
