"""The benchmark harness's pure helpers: percentiles, ratios, the target table, profiles."""

from __future__ import annotations

import pytest

from bench import report
from bench.profiling import summarize
from bench.stats import cpu_percent, met, percentile, rate, ratio, summarize_ms


def test_percentile_interpolates_like_numpy_linear():
    data = [1, 2, 3, 4]
    assert percentile(data, 0) == 1
    assert percentile(data, 100) == 4
    assert percentile(data, 50) == 2.5
    assert percentile(list(range(1, 101)), 99) == pytest.approx(99.01)
    assert percentile([7], 99.9) == 7
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(data, 101)


def test_percentile_ignores_input_order():
    assert percentile([4, 1, 3, 2], 25) == percentile([1, 2, 3, 4], 25) == 1.75


def test_summary_is_in_milliseconds():
    summary = summarize_ms([0.001, 0.002, 0.003])
    assert summary["count"] == 3 and summary["p50"] == 2.0 and summary["max"] == 3.0
    assert summarize_ms([])["p99"] is None


def test_ratio_rate_and_targets():
    assert ratio(300, 100) == 3
    assert ratio(None, 100) is None and ratio(1, 0) is None and ratio(1, None) is None
    assert rate(50, 2) == 25 and rate(1, 0) is None
    assert met(3.0, ">=", 3) is True and met(2.99, ">=", 3) is False
    assert met(25, "<=", 25) is True and met(50, "<", 50) is False
    assert met(None, "<", 1) is None
    assert cpu_percent(1.5, 1.0) == 150


def _results(moves: float, es: float, null: float) -> dict:
    run = {"clients": 32, "moves_per_s": moves, "submit_latency_ms": {"p99": 20.0}}
    return {
        "config": {"headline_clients": 32, "name": "quick"},
        "s1_throughput": {"status": "ok", "runs": [run]},
        "s7b_eventsourcing": {
            "status": "ok",
            "runs": [{"threads": 32, "events_per_s": es}],
        },
        "s7c_null_grpc": {
            "status": "ok",
            "runs": [
                {"clients": 32, "moves_per_s": null, "submit_latency_ms": {"p99": 5.0}}
            ],
        },
        "s4_projections": {"status": "not available", "reason": "none"},
    }


def test_headline_ratios_and_verdicts():
    rows = {
        r["figure"].split(" vs ")[-1]: r
        for r in report.headline(_results(3300, 1000, 6000))
    }
    vs_b = next(r for k, r in rows.items() if k.startswith("(b)"))
    vs_c = next(r for k, r in rows.items() if k.startswith("(c)"))
    assert vs_b["ratio"] == pytest.approx(3.3) and vs_b["met"] is True
    assert vs_c["ratio"] == pytest.approx(0.55) and vs_c["met"] is True
    p99 = next(
        r for r in report.headline(_results(1, 1, 1)) if r["figure"].startswith("p99")
    )
    assert p99["met"] is True and p99["ratio"] == 4
    catch_up = next(
        r for r in report.headline(_results(1, 1, 1)) if "catch-up" in r["figure"]
    )
    assert catch_up["measured"] is None and catch_up["met"] is None


def test_headline_survives_missing_and_failed_sections():
    results = {
        "config": {"headline_clients": 32, "name": "quick"},
        "s1_throughput": {"status": "failed", "error": "x"},
    }
    rows = report.headline(results)
    assert rows and all(r["met"] in (None, True, False) for r in rows)
    assert rows[0]["measured"] is None and rows[0]["ratio"] is None


def test_public_drops_raw_samples():
    assert report.public(
        {"a": 1, "_latencies": [1], "runs": [{"latencies": [2], "x": 0.123456}]}
    ) == {
        "a": 1,
        "runs": [{"x": 0.1235}],
    }


def test_profile_summary_counts_leaf_and_inclusive_shares():
    raw = "thread (1): ledger_1;main (cli.py:1);load (services/application.py:10);wait (psycopg/connection.py:5) 6\nthread (1): ledger_1;main (cli.py:1);decide (domain/games/thalara/decide.py:3) 3\nmain (cli.py:1);unary (grpc/_server.py:9) 1"
    summary = summarize(raw)
    assert summary["samples"] == 10
    assert dict(summary["self_pct"])["wait (psycopg/connection.py)"] == 60.0
    assert dict(summary["inclusive_pct"])["main (cli.py)"] == 100.0
    areas = dict(summary["area_pct"])
    assert (
        areas["psycopg / database wait"] == 60.0
        and areas["rules (domain/games)"] == 30.0
    )


def test_retry_policy_keeps_the_quietest_attempt():
    from bench.procs import RetryPolicy

    noise = iter([80.0, 50.0, 10.0, 5.0])
    settled = []
    policy = RetryPolicy(retries=2, settle=lambda: settled.append(1))
    value, seen = policy.quietest(
        lambda: ((n := next(noise)), {"other_processes_cpu_pct": n})
    )
    assert (value, seen, len(settled)) == (10.0, [80.0, 50.0, 10.0], 2)
    value, seen = RetryPolicy().quietest(
        lambda: ("only", {"other_processes_cpu_pct": 99.0})
    )
    assert (value, seen) == ("only", [99.0])
