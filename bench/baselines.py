"""Baselines (a) and (b), on the same PostgreSQL in the same run.

(a) pgbench, one INSERT per transaction into a table shaped like
    eventsourcing's events table (same columns, primary key and notification
    id index), with and without eventsourcing's ``LOCK TABLE ... IN EXCLUSIVE
    MODE``: the database's physical limit.
(b) eventsourcing used directly: an ``Application`` whose threads each save
    one event per transaction to their own aggregate, the way a user would
    build this without the ledger.  Same payload size as the ledger's events.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

from bench.cpu import RetryPolicy
from bench.db import libpq_params
from bench.stats import rate

PGBENCH_TABLE = "bench_pgbench_events"


def pgbench_path() -> str | None:
    return shutil.which("pgbench") or next(
        (
            p
            for p in ("/usr/bin/pgbench", "/usr/lib/postgresql/15/bin/pgbench")
            if os.path.exists(p)
        ),
        None,
    )


def _prepare_pgbench(url: str, workdir: Path, payload_bytes: int) -> dict[str, Path]:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {PGBENCH_TABLE}")
        conn.execute(
            f"CREATE TABLE {PGBENCH_TABLE} (originator_id uuid NOT NULL, originator_version bigint NOT NULL,"
            " topic text, state bytea, notification_id bigserial,"
            " PRIMARY KEY (originator_id, originator_version))"
        )
        conn.execute(f"CREATE UNIQUE INDEX ON {PGBENCH_TABLE} (notification_id)")
    payload = "\\x" + os.urandom(max(1, payload_bytes)).hex()
    insert = (
        f"INSERT INTO {PGBENCH_TABLE} (originator_id, originator_version, topic, state)"
        f" VALUES (gen_random_uuid(), 1, 'bench.Event', '{payload}'::bytea);\n"
    )
    raw = workdir / "pgbench-insert.sql"
    raw.write_text(insert)
    locked = workdir / "pgbench-insert-locked.sql"
    locked.write_text(
        "BEGIN;\n"
        f"LOCK TABLE {PGBENCH_TABLE} IN EXCLUSIVE MODE;\n" + insert + "COMMIT;\n"
    )
    return {"insert": raw, "insert+table lock": locked}


def run_pgbench(
    url: str,
    workdir: Path,
    clients: tuple[int, ...],
    seconds: int,
    payload_bytes: int,
    probe: Any = None,
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    policy = policy or RetryPolicy()
    exe = pgbench_path()
    if exe is None:
        return {"status": "not available", "reason": "pgbench not found"}
    scripts = _prepare_pgbench(url, workdir, payload_bytes)
    p = libpq_params(url)
    env = (
        {**os.environ, "PGPASSWORD": p["password"]}
        if p["password"]
        else dict(os.environ)
    )
    runs = []
    for variant, script in scripts.items():
        for c in clients:
            cmd = [
                exe,
                "-n",
                "-h",
                p["host"],
                "-p",
                p["port"],
                "-U",
                p["user"],
                "-c",
                str(c),
                "-j",
                str(min(c, os.cpu_count() or 1)),
                "-T",
                str(seconds),
                "-M",
                "prepared",
                "-f",
                str(script),
                p["dbname"],
            ]

            def once(cmd: list[str] = cmd) -> tuple[Any, Any]:
                result = _pgbench_once(cmd, env, seconds, probe)
                return result, result[0]

            (usage, returncode, text), attempts = policy.quietest(once)
            tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", text)
            lat = re.search(r"latency average = ([\d.]+) ms", text)
            failed = re.search(r"number of failed transactions: (\d+)", text)
            runs.append(
                {
                    "variant": variant,
                    "clients": c,
                    "tps": float(tps.group(1)) if tps else None,
                    "latency_avg_ms": float(lat.group(1)) if lat else None,
                    "failed": int(failed.group(1)) if failed else None,
                    "returncode": returncode,
                    "cpu": usage,
                    "attempts_other_cpu_pct": attempts,
                    **(
                        {"output_tail": text[-600:]}
                        if returncode != 0 or not tps
                        else {}
                    ),
                }
            )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {PGBENCH_TABLE}")
    return {
        "status": "ok",
        "payload_bytes": payload_bytes,
        "seconds": seconds,
        "runs": runs,
    }


def _pgbench_once(
    cmd: list[str], env: dict[str, str], seconds: int, probe: Any
) -> tuple[dict[str, Any] | None, int, str]:
    """Run pgbench, polling CPU while it runs (its backends exit with it)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        cpu = probe(proc.pid).start() if probe is not None else None
        deadline = time.monotonic() + seconds + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if cpu is not None:
                cpu.poll()
            time.sleep(0.2)
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        usage = cpu.stop() if cpu is not None else None
        out.seek(0)
        return usage, proc.returncode, out.read().decode(errors="replace")


# ------------------------------------------------------------ (b) eventsourcing direct


def run_eventsourcing_direct(
    es_env: dict[str, str],
    threads_list: tuple[int, ...],
    seconds: float,
    payload_bytes: int,
    probe: Any = None,
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    """``probe()`` (optional) makes a CPU probe, started with each window."""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Tally(Aggregate):
        def __init__(self) -> None:
            self.count = 0

        @event("Recorded")
        def record(self, note: str) -> None:
            self.count += 1

    class DirectApp(Application[Any]):
        name = "esdirect"

    policy = policy or RetryPolicy()
    note = "x" * max(1, payload_bytes - 120)  # the JSON envelope adds ~120 bytes
    runs = []
    for threads in threads_list:
        env = {
            k: v
            for k, v in es_env.items()
            if k.startswith("POSTGRES_") or k in ("PERSISTENCE_MODULE",)
        }
        env["POSTGRES_POOL_SIZE"] = str(threads)
        env["POSTGRES_MAX_OVERFLOW"] = "0"
        env["POSTGRES_PRE_PING"] = "n"
        app = DirectApp(env)
        try:
            run, attempts = policy.quietest(
                lambda app=app, threads=threads: _with_run_cpu(
                    _es_window(app, Tally, threads, seconds, note, probe)
                )
            )
            run["attempts_other_cpu_pct"] = attempts
            runs.append(run)
        finally:
            app.close()
    return {"status": "ok", "payload_bytes": payload_bytes, "runs": runs}


def _with_run_cpu(run: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    return run, run.get("cpu")


def _es_window(
    app: Any, tally_cls: Any, threads: int, seconds: float, note: str, probe: Any
) -> dict[str, Any]:
    """``threads`` threads, each saving one event per transaction, for ``seconds``."""
    counts = [0] * threads
    errors = [0] * threads
    latencies: list[list[float]] = [[] for _ in range(threads)]
    window: dict[str, float] = {}
    cpu = probe() if probe is not None else None

    def open_window() -> None:
        if cpu is not None:
            cpu.start()
        window["start"] = time.perf_counter()
        window["end"] = window["start"] + seconds

    ready = threading.Barrier(threads + 1, action=open_window)

    def worker(i: int) -> None:
        tally = tally_cls()
        app.save(tally)
        ready.wait(60)
        end = window["end"]
        for _ in range(10_000_000):
            now = time.perf_counter()
            if now >= end:
                return
            tally.record(note)
            try:
                app.save(tally)
            except Exception:  # noqa: BLE001 - counted, the run goes on
                errors[i] += 1
                tally = tally_cls()
                app.save(tally)
                continue
            counts[i] += 1
            latencies[i].append(time.perf_counter() - now)

    pool = [
        threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)
    ]
    for t in pool:
        t.start()
    ready.wait(60)
    for t in pool:
        t.join(seconds + 60)
    elapsed = time.perf_counter() - window["start"]
    return {
        "threads": threads,
        "events_per_s": rate(sum(counts), elapsed),
        "saves": sum(counts),
        "errors": sum(errors),
        "elapsed_s": round(elapsed, 3),
        "cpu": cpu.stop() if cpu is not None else None,
        "latencies": [x for lat in latencies for x in lat],
    }
