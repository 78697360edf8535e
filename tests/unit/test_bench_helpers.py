"""The benchmark harness's pure helpers: percentiles, ratios, the target table, profiles."""

from __future__ import annotations

import pytest

from bench import report
from bench.profiling import summarize
from bench.stats import (
    cpu_ms_per,
    cpu_percent,
    met,
    percentile,
    rate,
    ratio,
    summarize_ms,
)


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
    # 50% of a core for 2 s is 1,000 ms of CPU: 10 ms for each of 100 moves
    assert cpu_ms_per(50.0, 2.0, 100) == 10.0
    assert cpu_ms_per(None, 2.0, 100) is None and cpu_ms_per(50.0, 2.0, 0) is None


def _run(clients: int, moves: float, cpu_ms: float, p50: float, p99: float) -> dict:
    return {
        "clients": clients,
        "moves_per_s": moves,
        "server_cpu_ms_per_move": cpu_ms,
        "submit_latency_ms": {"p50": p50, "p99": p99},
    }


def _results(moves_32: float, null_32: float, es: float = 500.0) -> dict:
    """Scenario 1 at 1, 8 and 32 clients against the null handler and baseline (b)."""
    return {
        "config": {"headline_clients": 32, "name": "quick"},
        "s1_throughput": {
            "status": "ok",
            "runs": [
                _run(1, 320.0, 2.0, 2.5, 6.0),
                _run(8, 400.0, 1.8, 10.0, 20.0),
                _run(32, moves_32, 1.4, 30.0, 40.0),
            ],
        },
        "s7b_eventsourcing": {
            "status": "ok",
            "runs": [{"threads": 32, "events_per_s": es}],
        },
        "s7c_null_grpc": {
            "status": "ok",
            "runs": [_run(1, 900, 1.0, 1.0, 5.0), _run(32, null_32, 1.0, 15.0, 25.0)],
        },
        "s4_projections": {"status": "not available", "reason": "none"},
    }


def _row(rows: list[dict], starts: str) -> dict:
    return next(r for r in rows if r["figure"].startswith(starts))


def test_the_targets_are_ratios_to_the_same_runs_null_handler():
    rows = report.headline(_results(moves_32=450, null_32=900))
    cpu32 = _row(rows, "server CPU per move at 32")
    assert (cpu32["measured"], cpu32["baseline"], cpu32["met"]) == (1.4, 1.0, True)
    assert _row(rows, "server CPU per move at 1 client")["met"] is True
    vs_null = _row(rows, "moves/s at 32 clients ÷ null")
    assert vs_null["ratio"] == pytest.approx(0.5) and vs_null["met"] is True
    p99 = _row(rows, "SubmitMove p99")
    assert p99["ratio"] == pytest.approx(1.6) and p99["met"] is True
    p50 = _row(rows, "SubmitMove p50 at 1 client")
    assert (p50["measured"], p50["baseline"], p50["met"]) == (2.5, 1.0, True)
    slower = report.headline(_results(moves_32=449, null_32=900))
    assert _row(slower, "moves/s at 32 clients ÷ null")["met"] is False


def _with_peer(results: dict) -> dict:
    """The peer at 1 and 32 games (not 8), and its card game on the ledger."""
    results["peer"] = {
        "status": "ok",
        "runs": [
            {"clients": 1, "moves_per_s": 150.0, "server_cpu_ms_per_move": 3.0},
            {"clients": 32, "moves_per_s": 200.0, "server_cpu_ms_per_move": 2.0},
        ],
    }
    results["peer_game"] = {
        "status": "ok",
        "submit_only": {
            "runs": [
                {"clients": 1, "moves_per_s": 300.0, "server_cpu_ms_per_move": 3.5},
                {"clients": 32, "moves_per_s": 399.0, "server_cpu_ms_per_move": 1.0},
            ]
        },
    }
    return results


def test_the_peer_comparisons_use_the_peer_run_in_the_same_run():
    rows = report.headline(_with_peer(_results(moves_32=450, null_32=900)))
    mix = {
        r["figure"].split()[4]: r
        for r in rows
        if r["figure"].startswith("13-example mix: ")
    }
    assert {k: r["baseline"] for k, r in mix.items()} == {
        "1": 150.0,
        "8": None,
        "32": 200.0,
    }
    assert mix["1"]["met"] is True and mix["1"]["ratio"] == pytest.approx(320 / 150)
    assert mix["8"]["met"] is None and "did not run" in mix["8"]["figure"]
    assert mix["32"]["ratio"] == pytest.approx(450 / 200)
    cards = {
        r["figure"].split()[6]: r
        for r in rows
        if r["figure"].startswith("peer's game, SubmitMove only")
    }
    assert cards["1"]["met"] is True  # 300 >= 2 x 150
    assert cards["32"]["met"] is False  # 399 < 2 x 200
    cpu = {
        r["figure"].split()[7]: r
        for r in rows
        if r["figure"].startswith("peer's game: server CPU")
    }
    assert cpu["1"]["met"] is False and cpu["1"]["ratio"] == pytest.approx(3.5 / 3)
    assert cpu["32"]["met"] is True


def test_without_the_peer_no_peer_row_borrows_a_figure():
    rows = report.headline(_results(moves_32=450, null_32=900))
    peer = [r for r in rows if "peer" in r["figure"]]
    assert len(peer) == 12  # mix, the game, its CPU; the game over sessions
    assert all(r["baseline"] is None and r["met"] is None for r in peer)


def test_baseline_b_is_reported_but_is_no_target():
    targets = report.headline(_results(moves_32=450, null_32=900))
    assert not any("(b)" in r["figure"] for r in targets)
    others = report.other_figures(_results(moves_32=450, null_32=900, es=150))
    vs_b = _row(others, "moves/s at 32 clients ÷ (b)")
    assert vs_b["ratio"] == pytest.approx(3.0) and vs_b["met"] is None
    catch_up = _row(targets, "projection catch-up")
    assert catch_up["measured"] is None and catch_up["met"] is None


def test_the_rss_target_is_the_serving_process_alone_with_its_children_beside():
    results = _results(moves_32=450, null_32=900)
    results["s6_memory"] = {
        "status": "ok",
        "games": 10_000,
        "rss_idle_mib": 97.0,
        "rss_after_mib": 246.0,
        "rss_at_10k_mib_extrapolated": 246.0,
        "children_rss_after_mib": 80.0,
        "rss_with_children_mib": 326.0,
    }
    rss = _row(report.headline(results), "server RSS")
    assert (rss["measured"], rss["met"]) == (246.0, True)
    assert "serving process alone" in rss["figure"]
    assert "80 MiB more, not counted" in rss["figure"]


def test_headline_survives_missing_and_failed_sections():
    results = {
        "config": {"headline_clients": 32, "name": "quick"},
        "s1_throughput": {"status": "failed", "error": "x"},
    }
    rows = report.headline(results)
    assert len(rows) == 22
    assert all(r["measured"] is None and r["met"] is None for r in rows)
    assert rows[0]["ratio"] is None


def test_public_drops_raw_samples():
    assert report.public(
        {"a": 1, "_latencies": [1], "runs": [{"latencies": [2], "x": 0.123456}]}
    ) == {
        "a": 1,
        "runs": [{"x": 0.1235}],
    }


def test_profile_summary_counts_leaf_and_inclusive_shares():
    raw = "thread (1): ledger_1;main (cli.py:1);load (services/ledger/application.py:10);wait (psycopg/connection.py:5) 6\nthread (1): ledger_1;main (cli.py:1);decide (domain/games/thalara/decide.py:3) 3\nmain (cli.py:1);unary (grpc/_server.py:9) 1"
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
    from bench.cpu import RetryPolicy

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


def test_the_session_rows_compare_with_the_peer_and_the_unary_mix():
    results = _with_peer(_results(moves_32=450, null_32=900))
    results["s1_sessions"] = {
        "status": "ok",
        "runs": [
            {"clients": 1, "moves_per_s": 240.0, "server_cpu_ms_per_move": 2.0},
            {
                "clients": 32,
                "moves_per_s": 280.0,
                "server_cpu_ms_per_move": 0.5,
                "submit_latency_ms": {"p99": 30.0},
                "cpu": {"server_cpu_pct": 105.0},
            },
        ],
    }
    results["peer"]["runs"][1]["p99_ms"] = 100.0
    results["peer_game"]["session"] = {"runs": [{"clients": 32, "moves_per_s": 600.0}]}
    rows = report.headline(results)
    mix = {
        r["figure"].split()[6]: r
        for r in rows
        if r["figure"].startswith("13-example mix over sessions")
    }
    assert mix["1"]["ratio"] == pytest.approx(240 / 150) and mix["1"]["met"] is True
    assert mix["32"]["ratio"] == pytest.approx(280 / 200) and mix["32"]["met"] is False
    assert mix["8"]["met"] is None  # the peer did not run at 8
    p99 = _row(rows, "session move p99")
    assert p99["ratio"] == pytest.approx(0.3) and p99["met"] is True
    cpu = _row(rows, "mix: server CPU per move over sessions")
    assert cpu["baseline"] is not None and cpu["measured"] == 0.5
    cards = _row(rows, "peer's game over sessions: moves/s at 32")
    assert cards["ratio"] == pytest.approx(3.0) and cards["met"] is True
    # 105% of a core buys 1.5 x 200 moves/s at 3.5 ms a move at most
    bound = _row(rows, "bound: mix over sessions, server CPU per move at 32")
    assert bound["baseline"] == pytest.approx(3.5) and bound["measured"] == 0.5
    assert bound["ratio"] == pytest.approx(0.5 / 3.5) and bound["met"] is True
