"""The boardgame.io peer, run inside ``ledger bench``: its own harness, its own database.

The peer harness (boardgame.io + bgio-postgres, ``run.sh``; see its README) is
run as it is, right after scenario 1, so its figures and the ledger's come
from the same run on the same machine.  ``run.sh`` prints one JSON line per
concurrency level on stdout and one ``validate`` JSON line per level on
stderr; :func:`parse_output` turns both into the rows of the ``peer`` section.

Where the harness lives: ``BENCH_PEER_DIR``, else ``shared/bench/peer-bgio``
beside this repository.  Without ``node`` on PATH, or without the harness,
the section says why it did not run instead of failing.  A harness folder
without write permission is copied into the bench's work folder before
``npm ci`` (which needs to write ``node_modules``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
from pathlib import Path
from typing import Any

from bench import db
from bench.games.cards.models import MOVES
from bench.procs import REPO, free_port

MAX_MOVES = MOVES
"""Moves per game: the peer plays the length of :mod:`bench.games.cards`."""

LEVELS = (1, 8, 32)
"""The concurrencies compared with scenario 1 (those of them it also runs)."""

ROW_FIELDS = (
    "moves_per_s",
    "p50_ms",
    "p99_ms",
    "server_cpu_ms_per_move",
    "pg_backends_cpu_ms_per_move",
    "mean_move_index",
    "server_cpu_pct",
    "pg_backends_cpu_pct",
    "load_cpu_pct",
    "host_cpu_busy_pct_of_all_cores",
    "server_runqueue_wait_pct",
    "window_s",
    "moves",
    "errors",
    "last_error",
    "games_completed",
    "unacked_at_exit",
    "sql_statements_per_move",
)
"""What a row keeps of the harness's JSON line (the rest is its own detail)."""

VALIDATION_FIELDS = (
    "ok",
    "matches",
    "missing",
    "stored_behind_acked",
    "log_or_stateid_ne_moves",
    "acked_moves_all_time",
    "stored_moves",
)


def harness_dir() -> Path:
    """Where the peer harness is: ``BENCH_PEER_DIR`` or ``../shared/bench/peer-bgio``."""
    configured = os.environ.get("BENCH_PEER_DIR")
    return (
        Path(configured)
        if configured
        else REPO.parent / "shared" / "bench" / "peer-bgio"
    )


def levels_for(clients: tuple[int, ...]) -> tuple[int, ...]:
    """The levels of :data:`LEVELS` that scenario 1 also runs (quick: 1 and 32)."""
    return tuple(c for c in LEVELS if c in clients)


def parse_output(stdout: str, stderr: str) -> dict[str, Any]:
    """The ``peer`` section's rows from ``run.sh``'s output.

    stdout holds one JSON object per level (``"c"`` is its concurrency);
    stderr holds progress text, the ``versions:`` line and one JSON object
    per level with a ``"validate"`` key (that level's concurrency).  Lines
    that are not JSON objects are skipped; a level without its validation
    line gets ``validation: None``.
    """
    validations: dict[int, dict[str, Any]] = {}
    versions = None
    for line in stderr.splitlines():
        if line.startswith("versions:"):
            versions = line.removeprefix("versions:").strip()
        got = _json_object(line)
        if got is not None and "validate" in got:
            validations[int(got["validate"])] = {
                k: got.get(k) for k in VALIDATION_FIELDS
            }
    runs = []
    for line in stdout.splitlines():
        got = _json_object(line)
        if got is None or "c" not in got:
            continue
        clients = int(got["c"])
        runs.append(
            {
                "clients": clients,
                **{k: got.get(k) for k in ROW_FIELDS},
                "validation": validations.get(clients),
            }
        )
    return {"versions": versions, "runs": runs, "bench": _first_bench(stdout)}


def _json_object(line: str) -> dict[str, Any] | None:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        got = json.loads(line)
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


def _first_bench(stdout: str) -> str | None:
    for line in stdout.splitlines():
        got = _json_object(line)
        if got is not None and got.get("bench"):
            return str(got["bench"])
    return None


def _is_writable(folder: Path) -> bool:
    """Writable by us and not marked read-only (root ignores the mode bits)."""
    return os.access(folder, os.W_OK) and bool(folder.stat().st_mode & stat.S_IWUSR)


def _ready_harness(source: Path, workdir: Path) -> tuple[Path, str | None]:
    """A harness folder with ``node_modules``; a note when it had to be copied."""
    if (source / "node_modules").is_dir():
        return source, None
    where, note = source, None
    if not _is_writable(source):
        where = workdir / "peer-bgio"
        shutil.copytree(source, where, dirs_exist_ok=True)
        for path in (where, *where.rglob("*")):
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
        note = f"{source} is read-only: copied to the bench work folder for npm ci"
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"],
        cwd=where,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=600,
    )
    return where, note


def _pg_url(url: str) -> str:
    """``url`` as the ``postgres://`` URL ``run.sh`` takes."""
    p = db.libpq_params(url)
    auth = p["user"] + (f":{p['password']}" if p["password"] else "")
    return f"postgres://{auth}@{p['host']}:{p['port']}/{p['dbname']}"


def run(
    workdir: Path, clients: tuple[int, ...], warmup_s: float, window_s: float
) -> dict[str, Any]:
    """Run the peer harness at :func:`levels_for` ``clients``; the ``peer`` section."""
    source = harness_dir()
    if shutil.which("node") is None or shutil.which("npm") is None:
        return {"status": "not run", "reason": "no node on PATH"}
    if not (source / "run.sh").is_file():
        return {"status": "not run", "reason": f"no peer harness at {source}"}
    where, note = _ready_harness(source, workdir)
    levels = levels_for(clients)
    warmup = max(1.0, warmup_s)  # the Node clients connect over websockets first
    # a database of its own (``bench_…``: run.sh drops only tables of a bench database)
    with db.bench_database() as url:
        env = {
            **os.environ,
            "PG_URL": _pg_url(url),
            "PORT": str(free_port()),
            "LEVELS": " ".join(map(str, levels)),
            "MAX_MOVES": str(MAX_MOVES),
            "WARMUP_S": f"{warmup:g}",
            "DURATION_S": f"{window_s:g}",
        }
        # its own process group: on a timeout, run.sh's Node server goes with it
        proc = subprocess.Popen(
            ["bash", "run.sh"],
            cwd=where,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = proc.communicate(
                timeout=120 + len(levels) * (warmup + window_s + 80)
            )
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
    parsed = parse_output(stdout, stderr)
    if proc.returncode != 0 or not parsed["runs"]:
        tail = "\n".join(stderr.splitlines()[-15:])
        raise RuntimeError(f"peer run.sh exited with {proc.returncode}:\n{tail}")
    return {
        "status": "ok",
        "harness": str(source),
        "copied": note,
        "max_moves_per_game": MAX_MOVES,
        "warmup_s": warmup,
        "window_s": window_s,
        **parsed,
    }
