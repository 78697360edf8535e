"""docs/scale-out.md's capacity model is the committed bench run's, not hand-copied figures."""

from __future__ import annotations

import json

from bench.report import capacity


def test_the_capacity_model_in_the_design_doc_is_generated_from_the_committed_results() -> (
    None
):
    results = json.loads(capacity.RESULTS.read_text())
    doc = capacity.DOC.read_text()
    assert capacity.splice(doc, capacity.render(results)) == doc, (
        "docs/scale-out.md is stale: run python -m bench.report.capacity"
    )


def test_each_input_is_read_from_its_scenario() -> None:
    results = json.loads(capacity.RESULTS.read_text())
    base = capacity.inputs(results)
    results["s7a_pgbench"]["runs"] = [
        {**r, "tps": r["tps"] * 2}
        if r["variant"] == "insert+table lock" and r["clients"] == 32
        else r
        for r in results["s7a_pgbench"]["runs"]
    ]
    results["s5_stream_idle"]["moves"] *= 2
    changed = capacity.inputs(results)
    assert changed.lock_commits_per_s == 2 * base.lock_commits_per_s
    assert changed.events_per_move == base.events_per_move / 2
    assert "P = " + str(
        int(25 / (1000 / changed.lock_commits_per_s))
    ) in capacity.render(results)


def _storage(bytes_per_event: float, side: float) -> dict[str, object]:
    return {
        "status": "ok",
        "events": 1000,
        "bytes_per_event": bytes_per_event,
        "table_bytes_per_event": bytes_per_event - 100,
        "index_bytes_per_event": 100.0,
        "payload_bytes_per_event": bytes_per_event - 200,
        "side_bytes_per_event": side,
    }


def test_log_volume_comes_from_the_measured_bytes_per_event() -> None:
    results = json.loads(capacity.RESULTS.read_text())
    results["storage"] = _storage(800.0, 200.0)
    low = capacity.render(results)
    results["storage"] = _storage(1600.0, 400.0)
    high = capacity.render(results)
    events_1m = 100_000 * capacity.inputs(results).events_per_move
    assert "× 1,000 B" in low and f"≈ {events_1m * 1000 / 1e6:,.0f} MB/s" in low
    assert "× 2,000 B" in high and f"≈ {events_1m * 2000 / 1e6:,.0f} MB/s" in high
    assert capacity.NOT_MEASURED not in low.split("slowest view's lag")[0]


def test_without_a_measurement_the_model_says_so_and_gives_no_disk_figure() -> None:
    results = json.loads(capacity.RESULTS.read_text())
    results.pop("storage", None)
    results["s1_throughput"].pop("projection_lag_s", None)
    text = capacity.render(results)
    assert "| bytes per stored event | not measured in this run |" in text
    assert "lag while serving | not measured in this run |" in text
    assert "MB/s" not in text and "TB a day" not in text


def test_the_views_line_reports_the_runs_lag_not_that_views_keep_up() -> None:
    results = json.loads(capacity.RESULTS.read_text())
    lag = results["s1_throughput"]["projection_lag_s"]
    text = capacity.render(results)
    assert f"lagged p99 {lag['p99'] / 1000:.3f} s" in text
    assert "keep up" not in text
