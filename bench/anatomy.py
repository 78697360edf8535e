"""The anatomy of one move: what the servicer's SubmitMove path costs step by step.

Why apart from the rebuild scenario: both run in-process against PostgreSQL,
but this one times the write path (one thread, no gRPC) by wrapping the
ledger's and the libraries' calls, and shares nothing with a replay.
"""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

from bench.stats import rate


def run_anatomy(
    es_env: dict[str, str],
    mix: list[tuple[str, dict[str, Any]]],
    moves: int,
    interval: int,
) -> dict[str, Any]:
    """One thread, no gRPC: what the servicer's SubmitMove path costs step by step
    (following whichever path this tree's servicer takes: ``latest`` + ``submit``,
    or the older ``load`` + ``submit`` + ``load`` + ``read_events``).

    Wraps (in this process only) the ledger and library calls a move makes and
    records wall and CPU time per call.  Nested calls are included in their
    callers, so the rows overlap; ``per_move`` counts calls per move.
    """
    import functools
    from collections import defaultdict

    import eventsourcing.application as es_app
    import eventsourcing.persistence as es_persistence
    import psycopg_pool

    from domain.games import find_game
    from domain.ledger.aggregate import Game
    from services.ledger.application import GameLedger

    env = dict(es_env)
    app = GameLedger(env, snapshot_interval=interval)
    wall: dict[str, float] = defaultdict(float)
    cpu: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    patched: list[tuple[Any, str, Any]] = []
    labels: list[str] = []

    def wrap(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                wall[label] += time.perf_counter() - t0
                cpu[label] += time.process_time() - c0
                calls[label] += 1

        patched.append((owner, name, original))
        labels.append(label)
        setattr(owner, name, timed)

    rnd = random.Random(5)
    done = 0
    try:
        wrap(GameLedger, "submit", "GameLedger.submit (whole)")
        try:
            from services.storage.store import LedgerStore as _Store
        except ImportError:  # a ledger without the store adapter
            wrap(
                GameLedger,
                "_recorded_command",
                "  idempotency lookup (SELECT ledger_commands)",
            )
        else:
            wrap(
                _Store,
                "recorded_command",
                "  idempotency lookup (SELECT ledger_commands)",
            )
        wrap(Game, "act", "  decide + hash chain (Game.act)")
        try:
            from services.storage.group_commit import GroupCommitter
        except ImportError:  # a ledger without group commit
            pass
        else:
            wrap(GroupCommitter, "_commit", "  group commit (batch save)")
        try:
            from services.storage.store import LedgerStore
        except ImportError:  # a ledger without the store adapter
            wrap(
                es_app.Application,
                "_record",
                "  insert transaction (events + side rows + lock)",
            )
        else:
            wrap(
                LedgerStore,
                "append",
                "  insert transaction (events + side rows + lock)",
            )
            wrap(LedgerStore, "events", "LedgerStore.events (SELECT + decode)")
        wrap(
            es_app.Application,
            "_take_snapshots",
            "  snapshot check/take (every N events)",
        )
        has_latest = hasattr(GameLedger, "latest")
        if has_latest:
            wrap(GameLedger, "latest", "GameLedger.latest (write cache, no round trip)")
        wrap(GameLedger, "load", "GameLedger.load (cache hit + fast-forward SELECT)")
        if hasattr(GameLedger, "read_events"):  # a ledger before store.events
            wrap(GameLedger, "read_events", "GameLedger.read_events (SELECT + decode)")
        wrap(es_persistence.EventStore, "get", "EventStore.get (any SELECT of events)")
        wrap(
            psycopg_pool.ConnectionPool,
            "_check_connection",
            "pool pre-ping (SELECT 1 per checkout)",
        )
        started = time.perf_counter()
        games = 0
        while done < moves and time.perf_counter() - started < 120:
            game_type, fields = mix[games % len(mix)]
            games += 1
            ruleset = find_game(game_type)
            gid = app.create_game(game_type, fields).game_id
            for _ in range(3000):
                if done >= moves:
                    break
                # the servicer's first read: the write cache when the ledger has one
                game = app.load(gid)
                if game.is_over:
                    break
                seat = rnd.choice(game.to_act())
                command = ruleset.random_command(game.state, seat, rnd)
                assert command is not None, "a game that is not over has a move"
                result = app.submit(gid, command, seat, str(uuid.uuid4()))
                if getattr(result, "game", None) is None:
                    # older ledgers: the servicer re-reads the head and the events
                    app.load(gid)
                    app.read_events(  # type: ignore[attr-defined]  # only they have it
                        gid, result.first_version - 1, result.last_version
                    )
                done += 1
        elapsed = time.perf_counter() - started
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)
        app.close()
    rows = [
        {
            "step": label,
            "per_move": round(calls[label] / done, 2) if done else None,
            "wall_ms_per_move": round(1000 * wall[label] / done, 3) if done else None,
            "cpu_ms_per_move": round(1000 * cpu[label] / done, 3) if done else None,
        }
        for label in labels
        if label in wall
    ]
    return {
        "status": "ok",
        "moves": done,
        "games": games,
        "moves_per_s_one_thread": rate(done, elapsed),
        "steps": rows,
    }
