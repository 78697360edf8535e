"""``run_all``: every scenario in one run, then results.json/.md and charts.

Order: the ledger server scenarios (1, profile, 2, 5), the in-process ones
(3, anatomy, 4), memory (6, its own server), subscribers (9, three servers
of their own), the aged log (:mod:`bench.aged`: databases of its own), the ledger tables' size on disk (``storage``), then the baselines (7a pgbench,
7b eventsourcing, 7c null gRPC handler, which replays real responses
captured in scenario 1), and last the cost ladder (:mod:`bench.ladder`).  Each scenario is isolated: a failure is recorded
and the run goes on; ``run_all`` raises at the end if any failed, after
writing the results, so CI notices.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import platform
import shutil
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import (
    aged,
    anatomy,
    baselines,
    cpu,
    dashboard,
    db,
    ladder,
    legal_pages,
    machine,
    peer,
    peer_game,
    procs,
    profile_run,
    profiling,
    projection_catchup,
    rebuild,
    report,
    runs,
    scenarios,
    server_runs,
    setups,
    storage_size,
)
from bench.config import FULL, QUICK, Sizes
from bench.report import capacity

log = logging.getLogger("bench")


class ScenarioFailed(RuntimeError):
    """Raised by :func:`run_all` after writing results when a scenario failed."""


def _step(results: dict[str, Any], key: str, fn: Callable[[], Any]) -> Any:
    """Run one scenario, recording a failure instead of raising."""
    step_wait = min(120.0, float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    quiet = machine.wait_quiet(step_wait) if step_wait > 0 else None
    t0 = time.perf_counter()
    print(f"[bench] {key} ...", flush=True)
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 - isolate scenarios
        traceback.print_exc()
        results[key] = {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}
        value = None
    else:
        if isinstance(value, dict) and key not in results:
            results[key] = value
    took = time.perf_counter() - t0
    if isinstance(results.get(key), dict):
        results[key]["scenario_s"] = round(took, 1)
        if quiet is not None:
            results[key]["before_start"] = quiet
    print(f"[bench] {key} done in {took:.1f} s", flush=True)
    return value


def _payload_bytes(url: str) -> int:
    """Average stored event size of the ledger's events so far (baselines insert the same size)."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT avg(length(state))::int FROM ledger_events"
        ).fetchone()
    return int(row[0]) if row and row[0] else 600


def run_all(
    quick: bool,
    out_dir: str,
    aged_events: int | None = None,
    rebuild_aged: bool = False,
) -> dict[str, Any]:
    """Run every scenario and write results.json, results.md and charts to ``out_dir``."""
    sizes: Sizes = QUICK if quick else FULL
    out = Path(out_dir)
    if quick and out.resolve() == (procs.REPO / "bench" / "results").resolve():
        # keep the committed full-size results; quick runs (CI) go next to them
        out = out / "quick"
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    workdir = procs.make_workdir()
    results: dict[str, Any] = {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "config": {k: v for k, v in vars(sizes).items()},
    }
    raw: dict[str, Any] = {}
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    mix = setups.game_mix()
    results["config"]["game_mix"] = [f"{g} {f}" for g, f in mix]
    try:
        with db.bench_database() as url:
            cpu.watch_database(db.libpq_params(url)["dbname"])
            results["environment"] = {**machine.environment(url), **quiet}
            from services.storage.database_env import eventsourcing_env

            es_env = eventsourcing_env(url, 16, pool_min=8)  # 8 open, up to 16
            _run_server_scenarios(results, raw, sizes, url, workdir, mix)
            _step(
                results,
                "s1_workers",
                lambda: server_runs.workers(
                    url, workdir, sizes, mix, machine.retry_policy()
                ),
            )
            _step(
                results,
                "s3_rebuild",
                lambda: rebuild.run_rebuild(
                    url,
                    es_env,
                    sizes.rebuild_sizes,
                    sizes.rebuild_repeats,
                    sizes.snapshot_interval,
                ),
            )
            _step(
                results,
                "anatomy",
                lambda: anatomy.run_anatomy(
                    es_env, mix, sizes.anatomy_moves, sizes.snapshot_interval
                ),
            )
            _step(
                results,
                "s4_projections",
                lambda: projection_catchup.run(es_env, mix, quick),
            )
            _step(results, "s8_dashboard", lambda: dashboard.run(es_env, mix, quick))
            _step(
                results,
                "s6_memory",
                lambda: server_runs.memory(url, workdir, sizes, mix),
            )
            _step(
                results,
                "s9_subscribers",
                lambda: runs.subscriber_scaling(url, workdir, quick),
            )
            _step(
                results,
                "aged",
                lambda: aged.run(quick, aged_events, rebuild_aged, workdir),
            )
            # before the baselines, which write tables of their own
            _step(results, "storage", lambda: storage_size.measure(url))
            payload = _payload_bytes(url)
            results["config"]["baseline_payload_bytes"] = payload
            _step(
                results,
                "s7a_pgbench",
                lambda: baselines.run_pgbench(
                    url,
                    workdir,
                    sizes.pgbench_clients,
                    sizes.pgbench_s,
                    payload,
                    probe=lambda pid: cpu.CpuProbe((pid,)),
                    policy=machine.retry_policy(),
                ),
            )
            _step(
                results,
                "s7b_eventsourcing",
                lambda: server_runs.eventsourcing(
                    es_env, sizes, payload, machine.retry_policy()
                ),
            )
            _step(
                results,
                "s7c_null_grpc",
                lambda: server_runs.null(
                    raw, workdir, sizes, mix, machine.retry_policy()
                ),
            )
            _step(
                results,
                "ladder",
                lambda: ladder.run_ladder(
                    url,
                    workdir,
                    sizes,
                    mix,
                    machine.retry_policy(),
                    # --quick keeps the harness working, one level is enough
                    clients=ladder.CLIENTS[:1] if sizes is QUICK else ladder.CLIENTS,
                ),
            )
    finally:
        results["elapsed_s"] = round(time.perf_counter() - started, 1)
        results.setdefault(
            "environment",
            {"cpu_count": os.cpu_count(), "python": platform.python_version()},
        )
        report.write(results, raw, out)
        if out.resolve() == capacity.RESULTS.parent.resolve():
            capacity.main([])  # docs/scale-out.md follows the committed run
        shutil.rmtree(workdir, ignore_errors=True)
        print(
            f"[bench] wrote {out / 'results.md'} in {results['elapsed_s']:.0f} s",
            flush=True,
        )
    failed = [
        k
        for k, v in results.items()
        if isinstance(v, dict) and v.get("status") == "failed"
    ]
    if failed:
        raise ScenarioFailed(
            f"scenarios failed: {', '.join(failed)} (see {out / 'results.md'})"
        )
    return results


def _run_server_scenarios(
    results: dict[str, Any],
    raw: dict[str, Any],
    sizes: Sizes,
    url: str,
    workdir: Path,
    mix: list[tuple[str, dict[str, Any]]],
) -> None:
    server = procs.start_ledger_server(
        url, workdir, snapshot_interval=sizes.snapshot_interval
    )
    try:
        lag = projection_catchup.lag_probe(url)

        def s1() -> dict[str, Any]:
            section, captured = scenarios.throughput(
                server,
                sizes.clients,
                sizes.warmup_s,
                sizes.window_s,
                mix,
                sizes.headline_clients,
                lag,
                machine.retry_policy(),
            )
            raw["captured"] = captured
            raw["s1"] = {r["clients"]: r["_latencies"] for r in section["runs"]}
            return section

        _step(results, "s1_throughput", s1)

        _step(
            results,
            "s1_sessions",
            lambda: scenarios.throughput_over_sessions(
                server,
                sizes.clients,
                sizes.warmup_s,
                sizes.window_s,
                mix,
                machine.retry_policy(),
            ),
        )
        _step(
            results,
            "s1_watching",
            lambda: scenarios.throughput_watching(
                server,
                sizes.clients[-1],
                sizes.warmup_s,
                sizes.window_s,
                mix,
                machine.retry_policy(),
            ),
        )
        _step(
            results,
            "peer",
            lambda: peer.run(workdir, sizes.clients, sizes.warmup_s, sizes.window_s),
        )
        _step(
            results,
            "peer_game",
            lambda: peer_game.run(
                url, workdir, sizes, results.get("peer"), machine.retry_policy()
            ),
        )
        _step(
            results,
            "rpc_costs",
            lambda: scenarios.rpc_costs(server, 8, sizes.hot_s / 2, mix),
        )
        _step(
            results,
            "legal_move_pages",
            lambda: legal_pages.page_costs(
                server.target, 5 if sizes is QUICK else 30, server.admin_token
            ),
        )
        if profiling.available():
            _step(
                results,
                "profile",
                lambda: profile_run.profile_scenario1(
                    server, mix, workdir, sizes.profile_s
                ),
            )
        else:
            results["profile"] = {
                "status": "not run",
                "reason": profiling.why_not(),
            }
        _step(
            results,
            "s2_hot_game",
            lambda: scenarios.hot_game(server, sizes.hot_racers, sizes.hot_s, mix),
        )

        def s5(background: int) -> dict[str, Any]:
            section = scenarios.stream_latency(
                server,
                sizes.stream_s,
                sizes.stream_moves,
                sizes.stream_subscribers,
                mix,
                background,
                database_url=url,
            )
            raw["s5_stream_loaded" if background else "s5_stream_idle"] = section[
                "_latencies"
            ]
            return section

        _step(results, "s5_stream_idle", lambda: s5(0))
        if sizes.stream_loaded_clients:
            _step(results, "s5_stream_loaded", lambda: s5(sizes.stream_loaded_clients))
        results["server_rss_after_load_mib"] = (
            cpu.proc_rss_bytes(server.pid) or {}
        ).get("VmRSS", 0) / 2**20
    finally:
        server.stop()
