"""Scenario sizes: full (a few minutes) and ``--quick`` (under a minute, for CI)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sizes:
    name: str
    clients: tuple[int, ...]
    warmup_s: float
    window_s: float
    hot_racers: int
    hot_s: float
    rebuild_sizes: tuple[int, ...]
    rebuild_repeats: int
    snapshot_interval: int
    stream_s: float
    stream_moves: int
    stream_subscribers: int
    stream_loaded_clients: int  # 0: no "under load" stream run
    memory_games: int
    memory_concurrency: int
    pgbench_clients: tuple[int, ...]
    pgbench_s: int
    es_threads: tuple[int, ...]
    es_s: float
    null_warmup_s: float
    null_window_s: float
    anatomy_moves: int
    profile_s: float
    workers_clients: tuple[int, ...] = (32,)
    headline_clients: int = 32


FULL = Sizes(
    name="full",
    clients=(1, 8, 32, 64),
    warmup_s=3.0,
    window_s=15.0,
    hot_racers=16,
    hot_s=15.0,
    rebuild_sizes=(100, 1000, 5000),
    rebuild_repeats=5,
    snapshot_interval=50,
    stream_s=15.0,
    stream_moves=400,
    stream_subscribers=3,
    stream_loaded_clients=32,
    memory_games=10_000,
    memory_concurrency=32,
    pgbench_clients=(1, 32),
    pgbench_s=10,
    es_threads=(1, 8, 32, 64),
    es_s=8.0,
    null_warmup_s=1.0,
    null_window_s=8.0,
    anatomy_moves=400,
    profile_s=10.0,
    workers_clients=(8, 32, 64),
)

QUICK = Sizes(
    name="quick",
    clients=(1, 32),
    warmup_s=0.5,
    window_s=2.5,
    hot_racers=8,
    hot_s=2.0,
    rebuild_sizes=(100, 1000, 5000),
    rebuild_repeats=1,
    snapshot_interval=50,
    stream_s=3.0,
    stream_moves=40,
    stream_subscribers=3,
    stream_loaded_clients=0,
    memory_games=200,
    memory_concurrency=16,
    pgbench_clients=(1, 32),
    pgbench_s=1,
    es_threads=(1, 32),
    es_s=1.5,
    null_warmup_s=0.5,
    null_window_s=1.5,
    anatomy_moves=60,
    profile_s=3.0,
)


@dataclass(frozen=True)
class AgedSizes:
    """The aged-log scenario (:mod:`bench.aged`): both databases and what is measured."""

    name: str
    events: int  # the aged database
    real_events: int  # of which played; the rest are copies of those games
    young_events: int  # the young database, all played
    build_workers: int
    clients: int
    warmup_s: float
    window_s: float
    s1_rounds: int
    cold_games: int
    repeats: int
    rebuild_budget_s: float  # per view; beyond it the whole log's time is projected

    def with_events(self, events: int) -> AgedSizes:
        """These sizes with an aged database of ``events`` events."""
        from dataclasses import replace

        return replace(self, events=events, real_events=min(self.real_events, events))


AGED_FULL = AgedSizes(
    name="full",
    events=5_000_000,
    real_events=300_000,
    young_events=20_000,
    build_workers=2,
    clients=32,
    warmup_s=3.0,
    window_s=15.0,
    s1_rounds=2,
    cold_games=40,
    repeats=20,
    rebuild_budget_s=60.0,
)

AGED_QUICK = AgedSizes(
    name="quick",
    events=20_000,
    real_events=2_500,
    young_events=1_500,
    build_workers=1,
    clients=8,
    warmup_s=0.5,
    window_s=1.5,
    s1_rounds=1,
    cold_games=5,
    repeats=3,
    rebuild_budget_s=60.0,
)
