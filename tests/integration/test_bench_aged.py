"""The aged-log scenario's harness (``bench.aged``, ``bench.aged_log``) at a tiny size.

No timing is asserted (figures live in ``ledger bench``): what is checked is
that both databases are built by the same path, that the aged one holds the
events asked for with every row a move stores, that it is cached under its
content key and reused, that a run measures a copy and drops it, and that
the report compares every figure on both databases.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from bench import aged, aged_log, setups
from bench.config import AgedSizes
from bench.report import aged as aged_report

TINY = AgedSizes(
    name="test",
    events=2_500,
    real_events=1_000,
    young_events=600,
    build_workers=1,
    clients=2,
    warmup_s=0.2,
    window_s=0.6,
    s1_rounds=1,
    cold_games=2,
    repeats=1,
    rebuild_budget_s=60.0,
)


def _databases(url: str, pattern: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [
            r[0]
            for r in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (pattern,)
            ).fetchall()
        ]


@pytest.fixture
def admin(server_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("BENCH_DATABASE_URL", server_url)
    name = aged_log.aged_name(TINY.events, setups.game_mix(), TINY.real_events)
    aged_log.drop(name)
    yield server_url
    aged_log.drop(name)


def test_aged_scenario_measures_a_young_and_an_aged_database_side_by_side(
    admin: str,
) -> None:
    runs_before = set(_databases(admin, "bench_aged_run_%"))
    result = aged.run(quick=True, sizes=TINY)
    assert result["status"] == "ok"
    young, old = result["young"], result["aged"]
    assert old["storage"]["events"] >= TINY.events > young["storage"]["events"]
    assert old["built"]["real_events"] >= TINY.real_events
    assert old["built"]["copied_events"] > 0 and old["built"]["reused"] is False
    # every move stores its idempotency row and a receipt, copies included
    rows = old["storage"]["side_table_rows"]
    assert rows["ledger_commands"] > 0
    assert rows["ledger_receipts"] == rows["ledger_commands"] + rows["ledger_games"]
    for side in (young, old):
        assert side["s1"]["unary"][0]["moves_per_s"] > 0
        assert not [p for p, v in side["dashboard"]["pages"].items() if "error" in v]
        assert side["projection_rebuild"]["stats"]["complete"] is True
        assert side["projection_rebuild"]["stats"]["positions"] > 0
        # a young database of a few hundred events may hold one finished game
        assert 1 <= side["cold_load"]["games"] <= TINY.cold_games
    cmp = result["compare"]
    assert set(cmp["s1"]) == set(aged.TRANSPORTS)
    assert set(cmp["dashboard_p95_ms"]) == set(old["dashboard"]["pages"])
    assert (
        "home" in cmp["dashboard_p95_ms"] and "stats index" in cmp["dashboard_p95_ms"]
    )
    for name in ("GetLeaderboard", "GetGameTypeStats", "GetFairness"):
        assert all(isinstance(v, float) for v in cmp["reads_p95_ms"][name])
    # the run measured a copy and dropped it; the cached database stays, and is reused
    assert set(_databases(admin, "bench_aged_run_%")) == runs_before
    name, info = aged_log.ensure(
        TINY.events, setups.game_mix(), False, 1, TINY.real_events
    )
    assert info["reused"] is True and name == old["built"]["cached_as"]
    assert "Aged log" in aged_report.markdown(result)


def test_the_cache_key_names_what_the_database_holds() -> None:
    mix = setups.game_mix()
    key = aged_log.content_key(5_000_000, mix, 300_000)
    assert key == aged_log.content_key(5_000_000, mix, 300_000)
    assert key != aged_log.content_key(5_000_001, mix, 300_000)
    assert key != aged_log.content_key(5_000_000, mix[1:], 300_000)
    assert key != aged_log.content_key(5_000_000, mix, 200_000)
