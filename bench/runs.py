"""``ledger bench --profile-only``, ``--scenario subscribers`` and ``--scenario memory``:
one part of a run alone.

The full run (:func:`bench.harness.run_all`) includes both; these exist so the
CPU split can be taken before and after a change in a minute, and so the
subscriber scaling (scenario 9) can be re-measured without the whole bench.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from bench import (
    dashboard,
    db,
    machine,
    procs,
    profile_run,
    profiling,
    server_runs,
    setups,
    subscribers,
)
from bench.config import FULL, QUICK

#: Where the scenario-9 fan-out is measured through JetStream; '' = in-process only.
NATS_URL = os.environ.get("BENCH_NATS_URL", "nats://127.0.0.1:4222")


def nats_reachable(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or 4222), timeout=1.0
        ):
            return True
    except OSError:
        return False


def subscriber_scaling(url: str, workdir: Path, quick: bool) -> dict[str, Any]:
    """Scenario 9: live subscribers vs delivery latency across 3 servers (bench/subscribers.py)."""
    counts = subscribers.QUICK_COUNTS if quick else subscribers.FULL_COUNTS
    moves = 4 if quick else 10
    nats = NATS_URL if NATS_URL and nats_reachable(NATS_URL) else None
    rows = subscribers.run(url, workdir, counts, moves, nats)
    return {
        "status": "ok",
        "counts": list(counts),
        "moves": moves,
        "jetstream": nats is not None,
        "jetstream_note": None
        if nats
        else f"NATS not reachable at {NATS_URL!r}: in-process fan-out only",
        "rows": rows,
    }


def _out(out_dir: str, quick: bool, keep_in_place: bool) -> Path:
    out = Path(out_dir)
    if (
        quick
        and not keep_in_place
        and out.resolve() == (procs.REPO / "bench" / "results").resolve()
    ):
        out = out / "quick"  # keep the committed full-size results
    out.mkdir(parents=True, exist_ok=True)
    return out


def run_subscribers(quick: bool, out_dir: str) -> dict[str, Any]:
    """Only the subscriber scaling; writes ``subscribers.json`` (the report reads it)."""
    out = _out(out_dir, quick, keep_in_place=False)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    workdir = procs.make_workdir()
    try:
        with db.bench_database() as url:
            section = subscriber_scaling(url, workdir, quick)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    section["before_start"] = quiet
    (out / "subscribers.json").write_text(json.dumps(section, indent=1) + "\n")
    print(subscribers.markdown(section["rows"]))
    print(f"[bench] wrote {out / 'subscribers.json'}", flush=True)
    return section


def run_memory(quick: bool, out_dir: str) -> dict[str, Any]:
    """Only scenario 6 (a few minutes at full size); writes ``memory.json``, so a
    change to what a cached game holds can be measured before and after."""
    sizes = QUICK if quick else FULL
    out = _out(out_dir, quick, keep_in_place=False)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    workdir = procs.make_workdir()
    try:
        with db.bench_database() as url:
            section = server_runs.memory(url, workdir, sizes, setups.game_mix())
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    section["before_start"] = quiet
    (out / "memory.json").write_text(json.dumps(section, indent=1) + "\n")
    print(json.dumps(section, indent=1))
    print(f"[bench] wrote {out / 'memory.json'}", flush=True)
    return section


def run_dashboard(quick: bool, out_dir: str) -> dict[str, Any]:
    """Only scenario 8 (dashboard pages at 10,000 finished games, a few
    minutes); writes ``dashboard.json``, so a change to a page can be
    measured before and after without a full run."""
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    out = _out(out_dir, quick, keep_in_place=False)
    with db.bench_database() as url:
        from services.storage.database_env import eventsourcing_env

        es_env = eventsourcing_env(url, 16, pool_min=8)
        section = dashboard.run(es_env, setups.game_mix(), quick)
    section["before_start"] = quiet
    (out / "dashboard.json").write_text(
        json.dumps(section, indent=1, default=str) + "\n"
    )
    print(
        f"[bench] worst page {section.get('worst_page')}: {section.get('worst_p95_ms')} ms p95"
    )
    print(f"[bench] wrote {out / 'dashboard.json'}", flush=True)
    return section


def run_profile_only(quick: bool, out_dir: str, label: str | None) -> dict[str, Any]:
    """Scenario 1 at 1 and 32 clients under py-spy; ``profile-<label>.json``.

    A labelled quick run writes into ``out_dir`` itself (bench/results), since
    before/after profiles are meant to be committed next to the full results.
    """
    if profiling.executable() is None:
        raise SystemExit("py-spy is not installed: pip install -e '.[bench]'")
    sizes = QUICK if quick else FULL
    seconds = 8.0 if quick else 15.0
    out = _out(out_dir, quick, keep_in_place=label is not None)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    workdir = procs.make_workdir()
    started = time.perf_counter()
    try:
        with db.bench_database() as url:
            server = procs.start_ledger_server(
                url, workdir, snapshot_interval=sizes.snapshot_interval
            )
            try:
                profile = profile_run.profile_scenario1(
                    server, setups.game_mix(), workdir, seconds
                )
            finally:
                server.stop()
            raws = sorted(workdir.glob("server-profile-*.raw"))
            if (
                label
            ):  # the collapsed stacks (flamegraph.pl, speedscope, inferno read them)
                for raw in raws:
                    name = f"profile-{label}-{raw.stem.removeprefix('server-profile-')}.txt.gz"
                    with gzip.open(out / name, "wb", compresslevel=9) as gz:
                        gz.write(raw.read_bytes())
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    extra = {
        "sizes": sizes.name,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "cpu_count": os.cpu_count(),
        **quiet,
        **machine.git(),
    }
    path = out / (f"profile-{label}.json" if label else "profile.json")
    profile_run.save(profile, path, label or "unlabelled", extra)
    print("\n".join(profile_run.layer_table([(label or "this run", profile)])))
    print(f"[bench] wrote {path}", flush=True)
    return profile


def run_sessions(quick: bool, out_dir: str) -> dict[str, Any]:
    """Scenario 1 over unary calls and over seat sessions, the peer, and the
    peer's game (its session mode too), in one run at the peer's levels; the
    session targets' rows to ``sessions.json`` and ``sessions.md``.

    The comparison a change to the session path is measured by, without the
    whole bench: every figure it states is a ratio within this run.
    """
    from bench import peer, peer_game, scenarios
    from bench.report import targets

    sizes = QUICK if quick else FULL
    levels = peer.levels_for(sizes.clients)
    out = _out(out_dir, quick, keep_in_place=False)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    workdir = procs.make_workdir()
    mix = setups.game_mix()
    results: dict[str, Any] = {"config": {"headline_clients": levels[-1]}}
    try:
        with db.bench_database() as url:
            server = procs.start_ledger_server(
                url, workdir, snapshot_interval=sizes.snapshot_interval
            )
            try:
                results["s1_throughput"], _ = scenarios.throughput(
                    server,
                    levels,
                    sizes.warmup_s,
                    sizes.window_s,
                    mix,
                    levels[-1],
                    None,
                    machine.retry_policy(),
                )
                for row in results["s1_throughput"]["runs"]:
                    row.pop("_latencies", None)
                results["s1_sessions"] = scenarios.throughput_over_sessions(
                    server,
                    levels,
                    sizes.warmup_s,
                    sizes.window_s,
                    mix,
                    machine.retry_policy(),
                )
                results["s1_watching"] = scenarios.throughput_watching(
                    server,
                    levels[-1],
                    sizes.warmup_s,
                    sizes.window_s,
                    mix,
                    machine.retry_policy(),
                )
            finally:
                server.stop()
            results["peer"] = peer.run(workdir, levels, sizes.warmup_s, sizes.window_s)
            results["peer_game"] = peer_game.run(
                url, workdir, sizes, results["peer"], machine.retry_policy()
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    rows = targets.Rows()
    targets.peer_rows(
        rows, results["s1_throughput"], results["peer"], results["peer_game"]
    )
    targets.session_rows(
        rows,
        results["s1_throughput"],
        results["s1_sessions"],
        results["peer"],
        results["s1_watching"],
    )
    targets.session_rows_cards(rows, results["peer_game"], results["peer"])
    results["before_start"] = quiet
    results["rows"] = list(rows)
    (out / "sessions.json").write_text(json.dumps(results, indent=1) + "\n")
    lines = [
        "| figure | measured | baseline | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}×"
        lines.append(
            f"| {r['figure']} | {r['measured']} {r['unit']} | {r['baseline']} "
            f"| {ratio} | {r['target']} | {r['met']} |"
        )
    (out / "sessions.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"[bench] wrote {out / 'sessions.json'}", flush=True)
    return results
