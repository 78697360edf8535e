"""The machine a run measures: what it is (versions, settings, commit) and how busy.

``wait_quiet`` and :func:`retry_policy` are how ``BENCH_WAIT_QUIET`` works:
the report says how busy the machine was, since 6 people share these 2 cores.
"""

from __future__ import annotations

import os
import platform
import time
from typing import Any

from bench import cpu, db, procs


def cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def environment(url: str) -> dict[str, Any]:
    import grpc

    env: dict[str, Any] = {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model(),
        "python": platform.python_version(),
        "grpcio": grpc.__version__,
        "platform": platform.platform(),
        "load_generator": "this process: asyncio grpc.aio clients, one channel each, 127.0.0.1 only, not pinned (CPU reported)",
    }
    try:
        from importlib.metadata import version

        import eventsourcing  # noqa: F401

        env["eventsourcing"] = version("eventsourcing")
        env["psycopg"] = version("psycopg")
    except Exception:  # noqa: BLE001
        pass
    env.update(git())
    try:
        env["postgres"] = db.server_settings(url)
    except Exception as exc:  # noqa: BLE001
        env["postgres"] = {"error": str(exc)}
    return env


def git() -> dict[str, Any]:
    """The commit measured, and how many tracked files differ from it outside bench/."""
    import subprocess

    try:
        commit = subprocess.run(
            ["git", "-C", str(procs.REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        status = subprocess.run(
            [
                "git",
                "-C",
                str(procs.REPO),
                "status",
                "--porcelain",
                "--untracked-files=no",
            ],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        # an exported tree (git archive): the caller may say which commit it is
        return {
            "git_commit": os.environ.get("BENCH_GIT_COMMIT"),
            "git_modified_files": [],
        }
    dirty = [line[3:] for line in status if not line[3:].startswith("bench/")]
    return {"git_commit": commit, "git_modified_files": dirty}


def wait_quiet(max_wait: float, threshold_pct: float = 25.0) -> dict[str, Any]:
    """Measure how busy the machine is before starting; with ``BENCH_WAIT_QUIET=S``
    wait up to S seconds (and up to 120 s before each scenario) for other
    processes to calm down.  Bounded; the run goes on regardless."""
    capacity = 100.0 * (os.cpu_count() or 1)
    waited = 0.0
    busy_pct = None
    for _ in range(int(max_wait // 2) + 1):
        b0, t0 = cpu.system_busy()
        time.sleep(2.0)
        b1, t1 = cpu.system_busy()
        busy_pct = capacity * (b1 - b0) / (t1 - t0) if t1 > t0 else None
        if busy_pct is None or busy_pct < threshold_pct or waited >= max_wait:
            break
        waited += 2.0
    return {"machine_busy_before_start_pct": busy_pct, "waited_for_quiet_s": waited}


def retry_policy() -> cpu.RetryPolicy:
    """With ``BENCH_WAIT_QUIET`` set, re-run (up to twice) a throughput measurement
    during which other processes used more than 30% of the machine.

    Here, beside :func:`wait_quiet`, because every runner of scenarios (the
    full run and the ladder alone) reads the same setting the same way."""
    wait = float(os.environ.get("BENCH_WAIT_QUIET", "0") or 0)
    if wait <= 0:
        return cpu.RetryPolicy()
    return cpu.RetryPolicy(retries=2, settle=lambda: wait_quiet(min(60.0, wait)))
