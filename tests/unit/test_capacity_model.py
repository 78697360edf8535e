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
