"""Optional server profile with py-spy (``BENCH_PROFILE=1``), summarised without py-spy.

``py-spy record --format raw`` writes collapsed stacks; we count samples by
leaf function (self time), by function anywhere on the stack (inclusive
time), and by coarse area (rules, pydantic, database, gRPC, ...), so the
report can say where a move's time goes.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

AREAS: list[tuple[str, tuple[str, ...]]] = [
    # first match wins, checked leaf-first along the stack
    ("rules (domain/games)", ("domain/games/",)),
    ("hash chain / canonical json", ("domain/ledger/records/sealing.py", "hashlib")),
    ("chance (hmac rng)", ("domain/contract/chance.py",)),
    ("pydantic validate/dump", ("pydantic/", "pydantic_core")),
    ("protobuf <-> pydantic mapping", ("services/proto/convert.py",)),
    (
        "redaction / presenters",
        ("services/proto/game_messages.py", "services/api/presenters.py"),
    ),
    (
        "eventsourcing mapper/decode",
        (
            "services/storage/mapper.py",
            "eventsourcing/persistence.py",
            "eventsourcing/domain.py",
        ),
    ),
    (
        "psycopg / database wait",
        ("psycopg", "psycopg_pool", "eventsourcing/postgres.py"),
    ),
    ("json", ("json/", "orjson")),
    ("deepcopy", ("copy.py",)),
    ("grpc / asyncio", ("grpc/", "grpc_", "asyncio/", "cygrpc")),
]


#: The CPU split per layer: each sample goes to the leaf-most frame
#: that belongs to a known layer; frames of no layer (copy.py, functools,
#: typing, ...) are transparent, so ``deepcopy`` called by the rules counts as
#: ``domain/*``.  Within a frame the first matching layer wins.  "other" is a
#: stack with no frame of any layer (e.g. the interpreter's own start-up).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("protobuf", ("google/protobuf", "_pb2.py", "_pb2_grpc.py", "upb")),
    ("pydantic", ("pydantic/", "pydantic_core", "pydantic_settings")),
    ("json/codec", ("json/", "orjson", "msgspec", "codec", "domain/ledger/records/")),
    ("psycopg/PostgreSQL client", ("psycopg", "psycopg_pool")),
    ("eventsourcing", ("eventsourcing/",)),
    ("domain/*", ("domain/",)),
    ("projections/*", ("projections/",)),
    ("services/*", ("services/",)),
    (
        "grpc/asyncio runtime",
        (
            "grpc/",
            "grpc_",
            "cygrpc",
            "asyncio/",
            "selectors.py",
            "concurrent/futures",
            "threading.py",
            "queue.py",
        ),
    ),
]
LAYER_NAMES = [name for name, _ in LAYERS] + ["other"]


def layer_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        where = frame.partition(" (")[2] or frame
        for layer, needles in LAYERS:
            if any(n in where for n in needles):
                return layer
    return "other"


def executable() -> str | None:
    """py-spy on ``PATH``, else the one beside this Python (a venv's ``bin``,
    where ``pip install -e '.[bench]'`` puts it, when the venv is not activated)."""
    found = shutil.which("py-spy")
    if found is not None:
        return found
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None


def requested() -> bool:
    return os.environ.get("BENCH_PROFILE", "") not in ("", "0")


def available() -> bool:
    return requested() and executable() is not None


def why_not() -> str:
    """Why the server is not profiled in this run."""
    if not requested():
        return "set BENCH_PROFILE=1 to profile the server"
    return "py-spy is neither on PATH nor beside this Python: pip install -e '.[bench]'"


async def record(
    pid: int, seconds: float, out: Path, rate: int = 100, gil: bool = False
) -> dict[str, Any]:
    """Sample ``pid`` for ``seconds``; returns a summary (or why there is none).

    ``gil=False``: every thread that is not idle (waits on the database count,
    a wall-clock view); ``gil=True``: only the thread holding the GIL, i.e.
    where the one core a Python process can use goes.
    """
    exe = executable()
    if exe is None:
        return {
            "status": "not available",
            "reason": "py-spy is not installed (pip install py-spy)",
        }
    proc = await asyncio.create_subprocess_exec(
        exe,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, int(seconds))),
        "--rate",
        str(rate),
        "--format",
        "raw",
        "--nonblocking",
        "--threads",
        *(["--gil"] if gil else []),
        "--output",
        str(out),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout=seconds + 30)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return {"status": "failed", "reason": "py-spy timed out"}
    if proc.returncode != 0 or not out.exists():
        return {"status": "failed", "reason": err.decode(errors="replace")[-400:]}
    summary = summarize(out.read_text(errors="replace"))
    summary["status"] = "ok"
    summary["mode"] = "GIL holder only" if gil else "all non-idle threads"
    summary["raw"] = out.name
    return summary


def _frames(stack: str) -> list[str]:
    frames = stack.split(";")
    if frames and frames[0].startswith("thread ("):
        frames = frames[1:]
    return frames


def _thread_group(stack: str) -> str:
    """``thread (123): ledger_7;...`` -> ``ledger`` (the executor pool), ``MainThread``..."""
    first = stack.split(";", 1)[0]
    if not first.startswith("thread ("):
        return "?"
    name = first.partition(": ")[2]
    return name.rstrip("0123456789").rstrip("_-") or name


def _where(frame: str) -> str:
    """``func (path/file.py:12)`` -> ``func (path/file.py)`` (lines merged)."""
    name, _, loc = frame.partition(" (")
    return f"{name} ({loc.rsplit(':', 1)[0]})" if loc else name


def area_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        for area, needles in AREAS:
            if any(n in frame for n in needles):
                return area
    return "other python"


def summarize(raw: str, top: int = 25) -> dict[str, Any]:
    """Self and inclusive sample shares per function, and per area, from collapsed stacks."""
    leaf: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count_s = line.rpartition(" ")
        if not stack or not count_s.isdigit():
            continue
        count = int(count_s)
        threads[_thread_group(stack)] += count
        frames = _frames(stack)
        if not frames:
            continue
        total += count
        leaf[_where(frames[-1])] += count
        for where in {_where(f) for f in frames}:
            inclusive[where] += count
        areas[area_of(frames)] += count
        layers[layer_of(frames)] += count

    def share(counter: Counter[str], n: int) -> list[tuple[str, float]]:
        return (
            [(k, round(100 * v / total, 1)) for k, v in counter.most_common(n)]
            if total
            else []
        )

    return {
        "samples": total,
        "self_pct": share(leaf, top),
        "inclusive_pct": share(inclusive, top * 2),
        "area_pct": share(areas, len(AREAS) + 1),
        "layer_pct": share(layers, len(LAYER_NAMES)),
        "thread_pct": share(threads, 10),
    }
