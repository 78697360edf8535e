"""The "CPU split per layer" section: this run's py-spy profile, and before/after.

Layers are :data:`bench.profiling.LAYERS`.  The shares are of *GIL holder*
samples: where the one core the server's Python can use goes.  Protobuf
(de)serialisation runs in C (upb) without Python frames, so its cost shows
under the layer that called it (the gRPC runtime or ``services/*``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench import profile_run
from bench.report.lookup import ok


def splits(results: dict[str, Any], dirs: list[Path]) -> dict[str, Any]:
    """For results.json: the split of this run and of the labelled profiles."""
    out = {
        label: profile_run.split(doc["profile"])
        for label, doc in profile_run.load_labelled(*dirs).items()
    }
    prof = results.get("profile")
    if ok(prof) and prof.get("runs"):
        out["this run"] = profile_run.split(prof)
    return out


def split_table(results: dict[str, Any], dirs: list[Path]) -> list[str]:
    """This run's split (if profiled) beside the labelled before/after profiles."""
    columns: list[tuple[str, dict[str, Any]]] = []
    labelled = profile_run.load_labelled(*dirs)
    for label in profile_run.LABELS:
        doc = labelled.get(label)
        if doc:
            columns.append((label, doc["profile"]))
    prof = results.get("profile")
    if ok(prof) and prof.get("runs"):
        columns.append(("this run", prof))
    out = ["## CPU split per layer (py-spy, server process, scenario 1)", ""]
    if not columns:
        return [
            *out,
            (
                "not run: set BENCH_PROFILE=1 with py-spy installed, or "
                "`ledger bench --profile-only --label before|after`"
            ),
            "",
        ]
    notes = []
    for label, doc in labelled.items():
        others = [
            _busy((run.get("gil") or {}).get("other_processes_cpu_pct"))
            for run in doc["profile"].get("runs", [])
        ]
        notes.append(
            f"*{label}*: {doc.get('taken_at')}, commit {doc.get('git_commit')}, "
            f"{doc.get('sizes')} sizes, {doc['profile'].get('seconds')} s per run, machine "
            f"{_busy(doc.get('machine_busy_before_start_pct'))} busy before it started, "
            f"other processes {' / '.join(others) or '?'} during the GIL runs"
        )
    out += [
        (
            "Share of GIL-holder samples per layer (leaf-most frame of a known layer; "
            "copy, functools and other stdlib frames count for their caller), and that "
            "share of the server CPU per move measured while profiling. py-spy slows the "
            "server, so the ms are for comparing runs, not targets. protobuf (de)serialisation "
            "runs in C (upb) with no Python frame, so its cost shows in the row of its caller "
            "(mostly the gRPC runtime's `Handle._run`)."
        ),
        "",
        *[f"- {n}" for n in notes],
        "",
        *profile_run.layer_table(columns),
    ]
    return out


def _busy(pct: Any) -> str:
    return f"{pct:.0f}%" if isinstance(pct, (int, float)) else "?"


def details(results: dict[str, Any]) -> list[str]:
    """Threads, areas and hottest functions of this run's profile at its highest concurrency."""
    prof = results.get("profile")
    out = ["## Server profile under scenario 1", ""]
    if not ok(prof) or not prof.get("runs"):
        part = prof or {}
        why = part.get("reason", "set BENCH_PROFILE=1 with py-spy installed")
        return [*out, f"{part.get('status', 'not run')}: {why}", ""]
    run = prof["runs"][-1]
    out += [
        (
            f"py-spy on the server process, {run['clients']} clients, two runs separate "
            "from the measured one. *GIL holder only* shows where the one core a Python "
            "process can use goes; *all non-idle threads* also counts threads blocked "
            "in the database driver (a wall-clock view)."
        ),
        "",
    ]
    for key in ("gil", "threads"):
        p = run.get(key) or {}
        if p.get("status") != "ok":
            continue
        out += [
            f"### {p['mode']} ({p['samples']} samples)",
            "",
            "| thread | share |",
            "|---|---|",
            *[f"| {k} | {v}% |" for k, v in p.get("thread_pct", [])],
            "",
            "| area (leaf-most match) | share |",
            "|---|---|",
            *[f"| {k} | {v}% |" for k, v in p["area_pct"]],
            "",
            "| function (self) | share |",
            "|---|---|",
            *[f"| `{k}` | {v}% |" for k, v in p["self_pct"][:12]],
            "",
        ]
    return out
