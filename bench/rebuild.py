"""Scenario 3 (rebuild), in-process against PostgreSQL (the anatomy of a move is
:mod:`bench.anatomy`).

Rebuild.  Real games end long before 5,000 events (the longest, Thorgal, ends
within ~1,000), so long games are generated directly: a real ``GameCreated``
and opening, then the payloads of real random Thorgal playthroughs appended
back to back through the aggregate, skipping any that does not apply to the
state reached (so every event is hash-chained, evolved
and stored exactly as the ledger stores it; the 100-event game is a real
game's prefix).  Such a game would not pass an audit (its decisions are not
re-derivable), which does not matter for timing a replay.

For each size we time, median of several repeats, a ladder whose rungs each
add one step of the rebuild to the one before:
  * raw read: ``SELECT originator_version, topic, state`` of the same rows;
  * raw read + parsing each record with the ledger's parser
    (:func:`domain.ledger.records.load`, orjson);
  * read + decode to event objects, through the rebuild's own reader
    (``repository.event_store``, a ``ReplayEvents``) with the cyclic GC
    paused as a rebuild pauses it: everything a rebuild does but ``evolve``;
  * rebuild without snapshots (``GameLedger`` with snapshotting off);
  * the bound no decoder can beat: the raw read and parse rung plus the
    rules' own ``evolve`` over the same payloads already decoded (no event
    objects, no aggregate), timed apart and added, so a rebuild that built
    its events for free would still take this long;
  * rebuild with a snapshot, worst case: the latest snapshot is a full
    ``snapshot_interval`` behind the head, so that many events are replayed.
"""

from __future__ import annotations

import random
import statistics
import time
import uuid
from typing import Any

import psycopg

from bench.stats import rate
from domain.ledger.records import load
from services.storage.game_repository import gc_paused

GAME = "thorgal"
SETUP = {"players": 1}


def _ledger(es_env: dict[str, str], snapshots: bool, interval: int) -> Any:
    from services.ledger.application import GameLedger

    env = dict(es_env)
    env["AGGREGATE_CACHE_MAXSIZE"] = "10"
    if not snapshots:
        env["IS_SNAPSHOTTING_ENABLED"] = "n"
    app = GameLedger(env, snapshot_interval=interval)
    if not snapshots:
        app.snapshotting_intervals = {}  # type: ignore[misc]  # eventsourcing types it ClassVar but reads it per instance
    return app


def _payload_pool(min_events: int) -> list[Any]:
    from domain.games import find_game
    from domain.ledger.simulate import play_random_game

    ruleset = find_game(GAME)
    setup = ruleset.setup_model(**SETUP)
    pool: list[Any] = []
    seed = 1
    while len(pool) < min_events and seed < 500:
        pool.extend(play_random_game(ruleset, setup, seed).events[1:])
        seed += 1
    return pool


def build_long_game(app: Any, events: int, pool: list[Any], seed: int) -> uuid.UUID:
    """A ``GAME`` aggregate with exactly ``events`` stored events (see module docstring)."""
    from domain.games import find_game
    from domain.ledger.aggregate import Game

    ruleset = find_game(GAME)
    game = Game.create(
        ruleset, ruleset.setup_model(**SETUP), random.Random(seed).randbytes(32)
    )
    app.save(game)
    offset = seed * 97
    for i in range(20 * events):
        if game.version >= events:
            break
        payload = pool[(offset + i) % len(pool)]
        try:  # evolve is pure: a trial run keeps only events that apply to this state
            ruleset.evolve(game.state, payload)
        except Exception:  # noqa: BLE001
            continue
        game.append_decided(
            payload,
            decision=game.version,
            actor=0,
            command_id=None,
            command=None,
            signed=None,
        )
        if len(game.pending_events) >= 500:
            app.save(game)
    app.save(game)
    if game.version != events:
        raise RuntimeError(f"built {game.version} events, wanted {events}")
    return game.id


def _median_time(fn: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _measure(
    conn: Any,
    table: str,
    plain: Any,
    snapper: Any,
    gid: uuid.UUID,
    size: int,
    snap_at: int,
    repeats: int,
) -> dict[str, Any]:
    sql = (
        f"SELECT originator_version, topic, state FROM {table}"
        " WHERE originator_id = %s ORDER BY originator_version"
    )

    def raw() -> list[Any]:
        with conn.cursor() as cur:
            cur.execute(sql, (gid,), prepare=True)
            return cur.fetchall()

    def raw_json() -> None:
        for _, _, state in raw():
            load(state)

    reader = plain.repository.event_store

    def read_decode() -> None:
        with gc_paused():  # as GameRepository.get does
            assert len(reader.get(gid, lte=size)) == size

    def rebuild_plain() -> None:
        assert plain.repository.get(gid, version=size).version == size

    opened = plain.repository.get(gid, version=1)
    payloads = [
        e.payload for e in reader.get(gid, gt=1, lte=size) if hasattr(e, "payload")
    ]
    evolve = opened.ruleset.evolve

    def evolve_only() -> None:
        with gc_paused():  # as a rebuild does
            state = opened.state
            for payload in payloads:
                state = evolve(state, payload)

    def rebuild_snap() -> None:
        assert snapper.repository.get(gid, version=size).version == size

    raw()  # warm the buffer cache and the prepared statement
    payload_bytes = sum(len(r[2]) for r in raw())
    t_raw = _median_time(raw, repeats + 2)
    t_json = _median_time(raw_json, repeats + 2)
    read_decode()
    t_decode = _median_time(read_decode, repeats)
    rebuild_plain()
    t_plain = _median_time(rebuild_plain, repeats)
    evolve_only()
    t_evolve = _median_time(evolve_only, repeats + 2) * size / max(1, len(payloads))
    rebuild_snap()
    t_snap = _median_time(rebuild_snap, repeats)
    snapshot_bytes = None
    if snap_at:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT length(state) FROM"
                f" {snapper.snapshots.recorder.events_table_name}"
                " WHERE originator_id = %s ORDER BY originator_version DESC LIMIT 1",
                (gid,),
            )
            got = cur.fetchone()
            snapshot_bytes = got[0] if got else None
    return {
        "events": size,
        "stored_bytes": payload_bytes,
        "raw_read_ms": round(1000 * t_raw, 3),
        "raw_read_events_per_s": rate(size, t_raw),
        "raw_read_json_events_per_s": rate(size, t_json),
        "read_decode_events_per_s": rate(size, t_decode),
        "evolve_only_events_per_s": rate(size, t_evolve),
        "bound_read_parse_evolve_events_per_s": rate(size, t_json + t_evolve),
        "rebuild_ms": round(1000 * t_plain, 3),
        "rebuild_events_per_s": rate(size, t_plain),
        "snapshot_at": snap_at or None,
        "snapshot_bytes": snapshot_bytes,
        "replayed_after_snapshot": size - snap_at if snap_at else size,
        "rebuild_snapshot_ms": round(1000 * t_snap, 3),
        "rebuild_snapshot_effective_events_per_s": rate(size, t_snap),
    }


def run_rebuild(
    url: str,
    es_env: dict[str, str],
    sizes: tuple[int, ...],
    repeats: int,
    interval: int,
) -> dict[str, Any]:
    writer = _ledger(es_env, snapshots=False, interval=interval)
    plain = _ledger(es_env, snapshots=False, interval=interval)
    snapper = _ledger(es_env, snapshots=True, interval=interval)
    table = writer.recorder.events_table_name
    pool = _payload_pool(max(sizes) + 10)
    rows = []
    try:
        with psycopg.connect(url) as conn:
            for n, size in enumerate(sizes):
                t0 = time.perf_counter()
                gid = build_long_game(writer, size, pool, seed=n + 1)
                build_s = time.perf_counter() - t0
                snap_at = max(interval, size - interval) // interval * interval
                if snap_at >= size:
                    snap_at = 0
                if snap_at:
                    snapper.take_snapshot(gid, version=snap_at)
                row = _measure(conn, table, plain, snapper, gid, size, snap_at, repeats)
                row["build_s"] = round(build_s, 3)
                rows.append(row)
    finally:
        for app in (writer, plain, snapper):
            app.close()
    return {
        "status": "ok",
        "game": f"{GAME} {SETUP}",
        "repeats": repeats,
        "snapshot_interval": interval,
        "sizes": rows,
    }
