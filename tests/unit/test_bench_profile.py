"""The py-spy CPU split per layer, and the before/after table in results.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench import profile_run, report
from bench.profiling import layer_of, summarize

MAIN = "thread (1): MainThread;_run (asyncio/events.py:80)"
RULES_DEEPCOPY = (
    "submit (services/ledger/application.py:10);"
    "decide (domain/games/thalara/rules.py:3);deepcopy (copy.py:128)"
)
STACKS = "\n".join(
    f"{MAIN};{frames} {count}"
    for frames, count in (
        # rules calling deepcopy: copy.py is no layer, so the caller's layer counts
        (RULES_DEEPCOPY, 4),
        ("save (eventsourcing/application.py:9);execute (psycopg/cursor.py:5)", 3),
        ("to_message (services/proto/convert.py:7);validate (pydantic/main.py:2)", 2),
        ("select (selectors.py:451)", 1),
    )
)


def test_each_sample_goes_to_the_leaf_most_frame_of_a_known_layer():
    layers = dict(summarize(STACKS)["layer_pct"])
    assert layers == {
        "domain/*": 40.0,
        "psycopg/PostgreSQL client": 30.0,
        "pydantic": 20.0,
        "grpc/asyncio runtime": 10.0,
    }
    assert layer_of(["main (cli.py:1)", "deepcopy (copy.py:1)"]) == "other"
    assert layer_of(["encode (services/codec.py:3)"]) == "json/codec"
    assert layer_of(["x (ledger/v1/game_service_pb2.py:1)"]) == "protobuf"


def _profile(domain_pct: float, cpu_ms: float) -> dict[str, Any]:
    gil = {
        "status": "ok",
        "layer_pct": [["domain/*", domain_pct], ["services/*", 100 - domain_pct]],
        "server_cpu_ms_per_move": cpu_ms,
    }
    return {"status": "ok", "clients": [1, 32], "runs": [{"clients": 32, "gil": gil}]}


def test_results_md_shows_before_and_after_side_by_side(tmp_path: Path):
    for label, domain, cpu in (("before", 20.0, 6.0), ("after", 50.0, 1.2)):
        profile_run.save(
            _profile(domain, cpu), tmp_path / f"profile-{label}.json", label, {}
        )
    results: dict[str, Any] = {
        "started_at": "now",
        "elapsed_s": 1.0,
        "config": {"headline_clients": 32, "name": "quick"},
        "environment": {
            "cpu_count": 2,
            "python": "3.11",
            "machine_busy_before_start_pct": 37.0,
        },
    }
    report.write(results, {}, tmp_path)
    text = (tmp_path / "results.md").read_text()
    split = text[text.index("## CPU split per layer") :]
    assert "| layer | before, 32 clients | after, 32 clients |" in split
    assert "| domain/* | 20.0% (1.20 ms) | 50.0% (0.60 ms) |" in split
    assert "37% of 200% busy before the run started" in text
    saved = json.loads((tmp_path / "results.json").read_text())
    assert len(saved["headline"]) == 22
    assert saved["cpu_split_per_layer"]["after"]["32 clients"] == {
        "layers_pct": {"domain/*": 50.0, "services/*": 50.0},
        "server_cpu_ms_per_move": 1.2,
    }


def test_py_spy_is_found_beside_python_when_the_venv_is_not_activated(
    tmp_path, monkeypatch
):
    from bench import profiling

    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    monkeypatch.setattr(profiling.sys, "executable", str(python))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("BENCH_PROFILE", "1")
    assert profiling.executable() is None
    assert not profiling.available()
    assert "neither on PATH nor beside" in profiling.why_not()
    spy = python.parent / "py-spy"
    spy.write_text("#!/bin/sh\n")
    spy.chmod(0o755)
    assert profiling.executable() == str(spy)
    assert profiling.available()
    monkeypatch.setenv("BENCH_PROFILE", "0")
    assert not profiling.available()
    assert profiling.why_not() == "set BENCH_PROFILE=1 to profile the server"
