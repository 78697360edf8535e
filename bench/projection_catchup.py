"""Scenario 4: projection catch-up, and projection lag while scenario 1 runs.

Plugs into the read side through its public pieces only:
``projections.registry.VIEWS`` and ``registry.runners(datastore, [name])``
(a ``ViewRunner`` with ``ensure_tables``, ``reset`` and ``catch_up``), and the
``projection_tracking`` table for lag.  When those are missing (an older tree
without projections), the scenario reports "not available" and the rest of
the run is unaffected.

Catch-up: the log is pre-filled to at least ``MIN_EVENTS`` events with real,
complete random games of the mixed rulesets (created through
``GameLedger.create_game`` with player ids, played in memory through the
``Game`` aggregate with the ledger's own seeds, saved in multi-game
transactions with the ledger's ``ledger_games`` side row), then each view is
reset and timed catching up from position 0: log positions per second.

Lag: while scenario 1 runs, every 0.25 s, the age of the oldest event that
the slowest view has not applied yet (0 when every view is at the head): the
oldest event of a view's own topics past its tracked position, since a view
that has nothing of its topics to apply leaves its tracked position behind
(``projections.runner``).
"""

from __future__ import annotations

import inspect
import json
import random
import time
import uuid
from datetime import UTC, datetime
from typing import Any

from domain.ledger.records import LEDGER_TYPE_PREFIX

MIN_EVENTS = 200_000
QUICK_EVENTS = 15_000


def _registry() -> Any | None:
    try:
        from projections import registry
    except ImportError:
        return None
    if not hasattr(registry, "VIEWS") or not hasattr(registry, "runners"):
        return None
    return registry


def _count_events(app: Any) -> int:
    with app.datastore.transaction(commit=False) as curs:
        curs.execute(f"SELECT count(*) AS n FROM {app.recorder.events_table_name}")
        return int(curs.fetchone()["n"])


def prefill(
    app: Any,
    mix: list[tuple[str, dict[str, Any]]],
    target: int,
    budget_s: float,
    seed: int = 3,
) -> dict[str, Any]:
    """Add complete random games until the log holds ``target`` events (or the time budget ends).

    At least one batch is added even when the log already holds ``target``
    (the scenarios before may have filled it), so events per complete game
    (an input of the capacity model) is always measured.
    """
    from domain.games import find_game

    rnd = random.Random(seed)
    try:  # by name or among its options
        inspect.signature(app.create_game).bind_partial(player_ids=())
        takes_ids = True
    except TypeError:
        takes_ids = False
    players = [f"bench-player-{i:03d}" for i in range(200)]
    have = _count_events(app)
    start_count = have
    started = time.perf_counter()
    games = 0
    while (have < target or games == 0) and time.perf_counter() - started < budget_s:
        batch = []
        side: list[tuple[Any, ...]] = []
        for _ in range(16):
            game_type, fields = mix[games % len(mix)]
            games += 1
            ruleset = find_game(game_type)
            kwargs: dict[str, Any] = {}
            if takes_ids:
                count = len(ruleset.player_seats(ruleset.setup_model(**fields)))
                kwargs["player_ids"] = tuple(rnd.sample(players, count))
            created = app.create_game(game_type, fields, **kwargs)
            game = app.load(created.game_id)
            seed_bytes = app.seed_of(created.game_id)
            for _ in range(5000):
                if game.is_over:
                    break
                seat = rnd.choice(game.to_act())
                command = ruleset.random_command(game.state, seat, rnd)
                game.act(command, seat, seed_bytes, str(uuid.uuid4()))
            batch.append(game)
            side.append(
                (
                    game.version,
                    "ended" if game.is_over else "active",
                    game.modified_on if game.is_over else None,
                    list(game.outcome.winners) if game.outcome else None,
                    game.id,
                )
            )
        app.save(*batch)
        with app.datastore.transaction(commit=True) as curs:  # the listing's heads
            curs.executemany(
                "UPDATE ledger_games SET version = %s, status = %s, ended_at = %s,"
                " winners = %s WHERE game_id = %s",
                side,
            )
        have = _count_events(app)
    return {
        "events_before": start_count,
        "events_after": have,
        "games_added": games,
        "prefill_s": round(time.perf_counter() - started, 1),
    }


def run(
    es_env: dict[str, str], mix: list[tuple[str, dict[str, Any]]], quick: bool
) -> dict[str, Any]:
    registry = _registry()
    if registry is None:
        return {
            "status": "not available",
            "reason": "no projections.registry (VIEWS, runners) in this tree",
        }
    from services.ledger.application import GameLedger
    from services.runtime.bootstrap import view_runners

    env = dict(es_env)
    env["IS_SNAPSHOTTING_ENABLED"] = "n"
    app = GameLedger(env)
    app.snapshotting_intervals = {}  # type: ignore[misc]  # eventsourcing types it ClassVar but reads it per instance
    target = QUICK_EVENTS if quick else MIN_EVENTS
    try:
        filled = prefill(app, mix, target, budget_s=30 if quick else 300)
        views: dict[str, Any] = {}
        for name in list(registry.VIEWS):
            runner = view_runners(app.datastore, [name])[0]
            runner.ensure_tables()
            runner.reset()
            t0 = time.perf_counter()
            advanced = runner.catch_up()
            elapsed = time.perf_counter() - t0
            views[name] = {
                "positions": advanced,
                "seconds": round(elapsed, 3),
                "events_per_s": advanced / elapsed if elapsed > 0 else None,
                "batch_size": getattr(runner, "batch_size", None),
                "topics": list(getattr(runner.view, "topics", ()) or ()) or "all",
            }
    finally:
        app.close()
    rates = [v["events_per_s"] for v in views.values() if v["events_per_s"]]
    return {
        "status": "ok",
        "min_events": target,
        **filled,
        "views": views,
        "slowest_events_per_s": min(rates) if rates else None,
        "slowest_view": min(views, key=lambda k: views[k]["events_per_s"] or 0)
        if views
        else None,
    }


class LagProbe:
    """Age of the oldest event not yet applied by the slowest view (seconds)."""

    def __init__(
        self,
        url: str,
        events_table: str = "ledger_events",
        topics: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self._url = url
        self._table = events_table
        self._topics = topics or {}
        """Each view's topics (none: every event), as ``View.topics``."""
        self._conn: Any = None

    async def sample(self) -> float | None:
        import psycopg

        if self._conn is None:
            self._conn = await psycopg.AsyncConnection.connect(
                self._url, autocommit=True
            )
        cur = await self._conn.execute("SELECT view, position FROM projection_tracking")
        tracked = await cur.fetchall()
        if not tracked:
            return None
        oldest: int | None = None
        for view, position in tracked:
            sql = f"SELECT min(notification_id) FROM {self._table} WHERE notification_id > %s"
            params: list[Any] = [position]
            if self._topics.get(view):
                if all(t.startswith(LEDGER_TYPE_PREFIX) for t in self._topics[view]):
                    sql += (
                        f" AND starts_with(topic, '{LEDGER_TYPE_PREFIX}')"  # its index
                    )
                sql += " AND topic = ANY(%s)"
                params.append(list(self._topics[view]))
            cur = await self._conn.execute(sql, params)
            first = (await cur.fetchone() or (None,))[0]
            if first is not None and (oldest is None or first < oldest):
                oldest = first
        if oldest is None:
            return 0.0
        cur = await self._conn.execute(
            f"SELECT state FROM {self._table} WHERE notification_id = %s", (oldest,)
        )
        pending = await cur.fetchone()
        if pending is None:
            return 0.0
        stamp = datetime.fromisoformat(json.loads(bytes(pending[0]))["timestamp"])
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=UTC)
        return max(0.0, (datetime.now(UTC) - stamp).total_seconds())

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


def lag_probe(url: str) -> LagProbe | None:
    """A probe factory for scenario 1's headline window, or ``None`` without projections."""
    registry = _registry()
    if registry is None:
        return None
    topics = {name: tuple(registry.view(name).topics) for name in registry.VIEWS}
    return LagProbe(url, topics=topics)
