"""The CPU split per layer of the server under scenario 1, and before/after runs.

``BENCH_PROFILE=1 ledger bench`` (or ``ledger bench --profile-only --label
before``) records the ``ledger serve`` process with py-spy while scenario 1's
players run at 1 and at 32 clients, twice per concurrency: *GIL holder only*
(where the one core a Python process can use goes: the CPU split) and *all
non-idle threads* (also counts threads blocked in the database driver).  A
labelled run is kept as ``profile-<label>.json`` so a later run can be read
side by side with an earlier one (the write-path refactor's before and after).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any

from bench import loadgen, profiling
from bench.cpu import CpuProbe
from bench.procs import ServerProcess
from bench.stats import cpu_ms_per, rate

PROFILE_CLIENTS = (1, 32)
LABELS = ("before", "after")


def profile_scenario1(
    server: ServerProcess,
    mix: list[tuple[str, dict[str, Any]]],
    workdir: Path,
    seconds: float,
    clients: tuple[int, ...] = PROFILE_CLIENTS,
) -> dict[str, Any]:
    """py-spy the server at each concurrency, in runs separate from the measured ones."""
    out: dict[str, Any] = {
        "status": "ok",
        "clients": list(clients),
        "seconds": seconds,
        "runs": [],
    }
    for n in clients:
        run: dict[str, Any] = {"clients": n}
        for gil in (True, False):
            mode = "gil" if gil else "threads"
            raw = workdir / f"server-profile-{n}-{mode}.raw"
            probe = CpuProbe(server.pids())

            async def side(
                window_end: float,
                raw: Path = raw,
                gil: bool = gil,
                probe: CpuProbe = probe,
            ) -> tuple[dict[str, Any], dict[str, Any]]:
                probe.start()
                summary = await profiling.record(server.pid, seconds, raw, gil=gil)
                return summary, probe.stop()

            rec, w0, w1, (summary, cpu) = asyncio.run(
                loadgen.run_players(
                    server.target, n, 1.0, seconds + 1.0, mix, on_window=side, seed=n
                )
            )
            moves = rec.window(w0, w1)["submit_ok"]
            pct = cpu.get("server_cpu_pct")
            summary["moves_per_s"] = rate(moves, w1 - w0)
            summary["server_cpu_pct"] = pct
            summary["other_processes_cpu_pct"] = cpu.get("other_processes_cpu_pct")
            summary["server_cpu_ms_per_move"] = cpu_ms_per(pct or None, w1 - w0, moves)
            run[mode] = summary
            if summary.get("status") != "ok":
                out["status"] = summary.get("status", "failed")
                out["reason"] = summary.get("reason")
        out["runs"].append(run)
    return out


def save(
    profile: dict[str, Any], path: Path, label: str, extra: dict[str, Any]
) -> None:
    """Keep a profile as ``profile-<label>.json`` (what the before/after table reads)."""
    doc = {
        "label": label,
        "taken_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **extra,
        "profile": profile,
    }
    path.write_text(json.dumps(doc, indent=1, default=str) + "\n")


def load_labelled(*dirs: Path) -> dict[str, dict[str, Any]]:
    """``{"before": doc, "after": doc}`` for the labelled profiles found in ``dirs``."""
    found: dict[str, dict[str, Any]] = {}
    for label in LABELS:
        for d in dirs:
            path = d / f"profile-{label}.json"
            if label not in found and path.exists():
                found[label] = json.loads(path.read_text())
    return found


def _layers(
    profile: dict[str, Any], clients: int, mode: str = "gil"
) -> dict[str, float]:
    for run in profile.get("runs", []):
        if (
            run.get("clients") == clients
            and (run.get(mode) or {}).get("status") == "ok"
        ):
            return dict(run[mode]["layer_pct"])
    return {}


def split(profile: dict[str, Any]) -> dict[str, Any]:
    """``{"32 clients": {"layers_pct": {...}, "server_cpu_ms_per_move": x}}`` (GIL holder)."""
    return {
        f"{n} client{'s' if n > 1 else ''}": {
            "layers_pct": _layers(profile, n),
            "server_cpu_ms_per_move": _cpu(profile, n),
        }
        for n in profile.get("clients", [])
        if _layers(profile, n)
    }


def _cpu(profile: dict[str, Any], clients: int) -> Any:
    for run in profile.get("runs", []):
        if run.get("clients") == clients:
            return (run.get("gil") or {}).get("server_cpu_ms_per_move")
    return None


def layer_table(columns: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Markdown: one row per layer, one column per (run, clients), GIL-holder shares.

    ``columns`` is ``[(title, profile)]``; the share of a layer times the
    run's server CPU per move gives ms per move, shown next to it, so a
    smaller share of a smaller total is not mistaken for no gain.
    """
    heads: list[tuple[str, dict[str, float], Any]] = []
    for title, profile in columns:
        for n in profile.get("clients", []):
            layers = _layers(profile, n)
            if layers:
                heads.append(
                    (
                        f"{title}, {n} client{'s' if n > 1 else ''}",
                        layers,
                        _cpu(profile, n),
                    )
                )
    if not heads:
        return ["no profile with a GIL-holder split", ""]
    out = [
        "| layer | " + " | ".join(h for h, _, _ in heads) + " |",
        "|---|" + "---|" * len(heads),
    ]
    for layer in profiling.LAYER_NAMES:
        cells = []
        for _, layers, cpu in heads:
            share = layers.get(layer, 0.0)
            ms = f" ({share * cpu / 100:.2f} ms)" if cpu else ""
            cells.append(f"{share:.1f}%{ms}")
        out.append(f"| {layer} | " + " | ".join(cells) + " |")
    out.append(
        "| **server CPU ms/move (during profiling)** | "
        + " | ".join(f"{cpu:.2f}" if cpu else "—" for _, _, cpu in heads)
        + " |"
    )
    return [*out, ""]
