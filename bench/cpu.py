"""CPU and memory readings from ``/proc``, the per-scenario :class:`CpuProbe`
and the :class:`RetryPolicy` that re-runs a measurement taken on a noisy machine.

CPU comes from ``/proc`` (no psutil needed): per-process ``utime+stime`` and
the machine's busy time from ``/proc/stat``, so every scenario can say who
used the two cores: the server, the load generator (this process), and
PostgreSQL (all ``postgres`` processes).  Why apart from :mod:`bench.procs`:
these only read the machine, while that module starts and stops processes.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass, field
from typing import Any

from bench.stats import cpu_percent

TICKS = os.sysconf("SC_CLK_TCK")


def proc_cpu_seconds(pid: int) -> float | None:
    """User+system CPU seconds of one process (all its threads), or None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def proc_rss_bytes(pid: int) -> dict[str, int] | None:
    """``VmRSS`` and ``VmHWM`` (peak) of a process, in bytes."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0]) * 1024
    except OSError:
        return None
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (workers spawned by the server)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        ppid = int(raw[raw.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def self_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


_WATCHED_DB: list[str] = []


def watch_database(dbname: str | None) -> None:
    """Count only this database's backends (plus the shared auxiliary processes)
    as PostgreSQL CPU, so other users of the same server are not billed to us."""
    _WATCHED_DB[:] = [dbname] if dbname else []


def _is_ours(pid: str) -> bool:
    if not _WATCHED_DB:
        return True
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            title = fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return False
    is_backend = "(" in title or "[local]" in title
    return not is_backend or f" {_WATCHED_DB[0]} " in title


def postgres_cpu_seconds() -> dict[int, float]:
    """CPU seconds of the ``postgres`` processes: auxiliaries and our database's backends."""
    out: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as fh:
                if fh.read().strip() != "postgres":
                    continue
        except OSError:
            continue
        if not _is_ours(entry):
            continue
        cpu = proc_cpu_seconds(int(entry))
        if cpu is not None:
            out[int(entry)] = cpu
    return out


def system_busy() -> tuple[float, float]:
    """(busy, total) jiffies summed over all CPUs from ``/proc/stat``."""
    busy, _, total = system_times()
    return busy, total


def system_times() -> tuple[float, float, float]:
    """(busy, of which irq+softirq, total) jiffies over all CPUs from ``/proc/stat``.

    Interrupt time is mostly our own loopback traffic and disk flushes, charged
    to no process, so it is reported apart from "other processes".
    """
    with open("/proc/stat") as fh:
        parts = [int(x) for x in fh.readline().split()[1:]] + [0] * 8
    idle = parts[3] + parts[4]
    total = sum(parts[:8])
    return float(total - idle), float(parts[5] + parts[6]), float(total)


def steal_jiffies() -> float:
    """Time the hypervisor gave our vCPUs to someone else (``/proc/stat`` steal)."""
    with open("/proc/stat") as fh:
        parts = [int(x) for x in fh.readline().split()[1:]] + [0] * 8
    return float(parts[7])


@dataclass
class CpuProbe:
    """CPU used between :meth:`start` and :meth:`stop` by the server(s), us and PostgreSQL."""

    server_pids: tuple[int, ...] = ()
    _t0: float = 0.0
    _server0: dict[int, float] = field(default_factory=dict)
    _self0: float = 0.0
    _pg0: dict[int, float] = field(default_factory=dict)
    _sys0: tuple[float, float, float] = (0.0, 0.0, 0.0)
    _steal0: float = 0.0
    _pg_last: dict[int, float] = field(default_factory=dict)
    _server_last: dict[int, float] = field(default_factory=dict)

    def poll(self) -> None:
        """Remember current CPU of short-lived processes (backends, pgbench) before they exit."""
        self._pg_last.update(postgres_cpu_seconds())
        for p in self.server_pids:
            cpu = proc_cpu_seconds(p)
            if cpu is not None:
                self._server_last[p] = cpu

    def start(self) -> CpuProbe:
        self._t0 = time.perf_counter()
        self._server0 = {p: proc_cpu_seconds(p) or 0.0 for p in self.server_pids}
        self._self0 = self_cpu_seconds()
        self._pg0 = postgres_cpu_seconds()
        self._sys0 = system_times()
        self._steal0 = steal_jiffies()
        return self

    def stop(self) -> dict[str, Any]:
        wall = time.perf_counter() - self._t0
        server = sum(
            (proc_cpu_seconds(p) or self._server_last.get(p) or self._server0[p])
            - self._server0[p]
            for p in self.server_pids
        )
        loadgen = self_cpu_seconds() - self._self0
        pg_now = {**self._pg_last, **postgres_cpu_seconds()}
        # backends that appeared during the window count in full; ones that exited are lost
        postgres = sum(cpu - self._pg0.get(pid, 0.0) for pid, cpu in pg_now.items())
        busy1, irq1, total1 = system_times()
        busy = busy1 - self._sys0[0]
        irq = irq1 - self._sys0[1]
        total = total1 - self._sys0[2]
        cores = os.cpu_count() or 1
        machine = 100.0 * cores * busy / total if total else None
        interrupts = 100.0 * cores * irq / total if total else 0.0
        ours = sum(
            v
            for v in (
                cpu_percent(server, wall) if self.server_pids else 0.0,
                cpu_percent(loadgen, wall),
                cpu_percent(postgres, wall),
            )
            if v is not None
        )
        return {
            "wall_s": round(wall, 3),
            "server_cpu_pct": _round(cpu_percent(server, wall))
            if self.server_pids
            else None,
            "loadgen_cpu_pct": _round(cpu_percent(loadgen, wall)),
            "postgres_cpu_pct": _round(cpu_percent(postgres, wall)),
            "machine_busy_pct": _round(machine),
            "interrupts_cpu_pct": _round(interrupts),
            "steal_pct": _round(
                100.0 * cores * (steal_jiffies() - self._steal0) / total
            )
            if total
            else None,
            "other_processes_cpu_pct": _round(max(0.0, machine - interrupts - ours))
            if machine is not None
            else None,
            "machine_capacity_pct": 100 * cores,
        }


NOISE_LIMIT_PCT = 30.0


@dataclass
class RetryPolicy:
    """Re-run a measurement when other processes took more than ``NOISE_LIMIT_PCT``
    of the machine during it (a shared machine), keeping the quietest attempt."""

    retries: int = 0
    settle: Any = None  # called before a retry, e.g. wait for quiet

    def quietest(self, run_once: Any) -> tuple[Any, list[float | None]]:
        """``run_once() -> (value, cpu dict)``; returns (quietest value, others' CPU per attempt)."""
        best: tuple[Any, float] | None = None
        seen: list[float | None] = []
        for attempt in range(self.retries + 1):
            value, cpu = run_once()
            other = (cpu or {}).get("other_processes_cpu_pct")
            seen.append(other)
            score = other if other is not None else 0.0
            if best is None or score < best[1]:
                best = (value, score)
            if score <= NOISE_LIMIT_PCT:
                break
            if attempt < self.retries and self.settle is not None:
                self.settle()
        assert best is not None
        return best[0], seen


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
