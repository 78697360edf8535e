"""The cost ladder: scenario 1's load against servers built up one layer at a time.

Why: the ledger serves a fraction of the null handler's moves/s, and a
sampling profile cannot say which layer the difference is spent in (the
gRPC runtime's own time grows with everything above it).  Here every rung
is a server process of its own (:mod:`bench.ladder_server`, or ``ledger
serve`` for the last two), driven by the same load generator
(:func:`bench.scenarios.throughput`: ListLegalMoves + SubmitMove over the
same game mix) and read by the same CPU probe, so each layer's price is the
measured difference between a rung and the one below it.

The full server runs first, views on: its responses are captured and
canned for the three rungs that play no game (as baseline 7c does).  In a
full run the database already holds the earlier scenarios' events, which
that server's views have to catch up on; its windows start once every view
has reached the log's head (:func:`wait_for_views`), so the rung prices
following the log, not the catch-up.
``ledger bench --scenario ladder`` runs this alone; ``run_all`` runs it too.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from bench import canned_baseline, cpu, db, machine, procs, scenarios, setups
from bench.config import FULL, QUICK, Sizes
from bench.ladder_server import DATABASE_RUNGS, RUNGS

CLIENTS = (1, 32)

#: (key, label) of every rung, cheapest first.
LADDER: tuple[tuple[str, str], ...] = (
    ("null", "null handler (canned responses)"),
    ("interceptors", "+ interceptors (metrics, drain, guard), server options"),
    ("auth", "+ auth (token check)"),
    ("convert", "+ parsing and conversion (no game logic)"),
    ("rules", "+ decide and evolve (no storage)"),
    ("commit", "+ commit (PostgreSQL, group commit)"),
    ("notify", "+ LISTEN/NOTIFY hub feeding the cache"),
    ("serve_views_off", "ledger serve, views off"),
    ("serve", "ledger serve, views on (scenario 1)"),
)


def windows(sizes: Sizes) -> tuple[float, float]:
    """(warm-up, window) seconds per rung and client count."""
    if sizes is QUICK:
        return 0.5, 2.5
    return 2.0, 10.0


def start_rung(
    rung: str,
    workdir: Path,
    canned: Path | None = None,
    database_url: str | None = None,
    snapshot_interval: int = 50,
) -> procs.ServerProcess:
    """One rung's server on a free loopback port, healthy."""
    if rung == "serve" or rung == "serve_views_off":
        if database_url is None:
            raise ValueError("ledger serve needs a database")
        return procs.start_ledger_server(
            database_url,
            workdir,
            snapshot_interval=snapshot_interval,
            name=f"ladder-{rung}",
            extra_env={"LEDGER_VIEWS": "off"} if rung == "serve_views_off" else None,
        )
    if rung not in RUNGS:
        raise ValueError(f"unknown rung {rung!r}")
    port = procs.free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    env.update(
        PYTHONUNBUFFERED="1",
        LEDGER_DATA_DIR=str(workdir / f"ladder-{rung}-data"),
        LEDGER_SNAPSHOT_INTERVAL=str(snapshot_interval),
    )
    args = ["--rung", rung, "--port", str(port)]
    if canned is not None:
        args += ["--canned", str(canned)]
    if rung in DATABASE_RUNGS and database_url is not None:
        args += ["--database-url", database_url]
    return procs.start_module(
        "bench.ladder_server", args, workdir, f"ladder-{rung}", env, port
    )


VIEWS_WAIT_S = 180.0
"""How long the full server's views may take to catch up before it is measured anyway."""


def wait_for_views(url: str, timeout: float = VIEWS_WAIT_S) -> float | None:
    """Seconds until every view has applied the log's head as it was when
    this was called (:func:`projections.runner.wait_for_position`, as a
    read-your-writes call waits); None when one did not within ``timeout``
    or stopped before it."""
    from projections.runner import wait_for_position
    from services.runtime.bootstrap import build_ledger, view_runners
    from services.runtime.settings import Settings

    ledger = build_ledger(Settings(database_url=url), url)
    try:
        runners = view_runners(ledger.datastore, create_tables=False)
        head = runners[0].status().head
        start = time.monotonic()
        if not wait_for_position(runners, head, timeout):
            return None
        return round(time.monotonic() - start, 2)
    finally:
        ledger.close()


def _row(rung: str, label: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    row: dict[str, Any] = {"rung": rung, "label": label}
    for r in runs:
        n = r["clients"]
        row[f"moves_per_s_{n}"] = r.get("moves_per_s")
        row[f"cpu_ms_per_move_{n}"] = r.get("server_cpu_ms_per_move")
        row[f"errors_{n}"] = r.get("errors") or {}
        row[f"other_cpu_pct_{n}"] = (r.get("cpu") or {}).get("other_processes_cpu_pct")
        row[f"submit_p50_ms_{n}"] = (r.get("submit_latency_ms") or {}).get("p50")
    return row


def prices(rows: list[dict[str, Any]], clients: tuple[int, ...]) -> None:
    """Each rung's price against the rung below it, in place: server CPU ms
    per move added, and moves/s lost (negative: the rung is faster)."""
    previous: dict[str, Any] | None = None
    for row in rows:
        for n in clients:
            cost, rate = row.get(f"cpu_ms_per_move_{n}"), row.get(f"moves_per_s_{n}")
            before_cost = previous.get(f"cpu_ms_per_move_{n}") if previous else None
            before_rate = previous.get(f"moves_per_s_{n}") if previous else None
            row[f"price_cpu_ms_{n}"] = (
                round(cost - before_cost, 3)
                if cost is not None and before_cost is not None
                else None
            )
            row[f"price_moves_per_s_{n}"] = (
                round(before_rate - rate, 1)
                if rate is not None and before_rate is not None
                else None
            )
        previous = row


def run_ladder(
    url: str,
    workdir: Path,
    sizes: Sizes,
    mix: list[tuple[str, dict[str, Any]]],
    policy: cpu.RetryPolicy | None = None,
    clients: tuple[int, ...] = CLIENTS,
) -> dict[str, Any]:
    """Every rung at ``clients``; the ``ladder`` section of results.json."""
    warmup, window = windows(sizes)
    measured: dict[str, dict[str, Any]] = {}
    failures: dict[str, str] = {}
    views_waited: dict[str, float | None] = {}

    def measure(rung: str, **kwargs: Any) -> dict[str, list[bytes]]:
        try:
            server = start_rung(
                rung,
                workdir,
                database_url=url,
                snapshot_interval=sizes.snapshot_interval,
                **kwargs,
            )
        except Exception as exc:  # noqa: BLE001 - one rung failing keeps the others
            failures[rung] = f"{type(exc).__name__}: {exc}"
            return {}
        try:
            if rung == "serve":
                views_waited["serve"] = wait_for_views(url)
            section, captured = scenarios.throughput(
                server, clients, warmup, window, mix, clients[-1], None, policy
            )
        finally:
            server.stop()
        measured[rung] = section
        return captured

    captured = measure("serve")
    canned_path: Path | None = None
    if captured:
        canned_path = workdir / "ladder-canned.json"
        canned_baseline.write_canned(
            canned_path, canned_baseline.canned_responses(captured)
        )
    for rung, _ in LADDER:
        if rung == "serve":
            continue
        if rung in ("null", "interceptors", "auth") and canned_path is None:
            failures[rung] = "the full server captured no responses to replay"
            continue
        measure(rung, canned=canned_path)
    rows = [
        _row(rung, label, measured[rung]["runs"])
        for rung, label in LADDER
        if rung in measured
    ]
    prices(rows, clients)
    return {
        "status": "ok" if rows else "failed",
        "clients": list(clients),
        "warmup_s": warmup,
        "window_s": window,
        "rows": rows,
        "failed_rungs": failures,
        "views_caught_up_after_s": views_waited.get("serve"),
        "runs": {k: v["runs"] for k, v in measured.items()},
    }


def run_alone(quick: bool, out_dir: str) -> dict[str, Any]:
    """``ledger bench --scenario ladder``: only the ladder; ``ladder.json``
    (key ``ladder``, as in results.json), ``ladder.md`` and ``ladder.png`` in
    ``out_dir``.  Not results.*: the default ``out_dir`` holds the committed
    full run, which a ladder alone must not replace."""
    from bench.report import ladder as ladder_report

    sizes = QUICK if quick else FULL
    out = Path(out_dir)
    if quick and out.resolve() == (procs.REPO / "bench" / "results").resolve():
        out = out / "quick"  # keep the committed full-size results
    out.mkdir(parents=True, exist_ok=True)
    quiet = machine.wait_quiet(float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0))
    workdir = procs.make_workdir()
    try:
        with db.bench_database() as url:
            cpu.watch_database(db.libpq_params(url)["dbname"])
            section = run_ladder(
                url, workdir, sizes, setups.game_mix(), machine.retry_policy()
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    section["before_start"] = quiet
    section["sizes"] = sizes.name
    from bench.report import public

    results = {"ladder": section}
    (out / "ladder.json").write_text(
        json.dumps(public(results), indent=1, default=str) + "\n"
    )
    lines = ["# Cost ladder", "", *ladder_report.section(section, out)]
    (out / "ladder.md").write_text("\n".join(lines))
    print("\n".join(ladder_report.table(section)))
    print(f"[bench] wrote {out / 'ladder.md'}", flush=True)
    return section
