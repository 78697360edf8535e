"""A server whose dashboard is off never loads the web stack.

Why it matters: uvicorn, Starlette, Jinja2 and sse-starlette are about 6 MiB
of the serving process, whose resident size with 10,000 open games is a
performance target; a gRPC-only deployment should not carry them.  Each
case runs ``services.runtime.server.serve`` in a process of its own (a test
process has long imported everything) and reports what it loaded once the
server is up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

WEB_STACK = ("jinja2", "sse_starlette", "starlette", "uvicorn")

SERVE_AND_REPORT = f"""
import asyncio, os, signal, sys, threading
from services.runtime.bootstrap import wire
from services.runtime.server import serve
from services.runtime.settings import Settings

def ready(running):
    loaded = [m for m in {WEB_STACK!r} if m in sys.modules]
    print("web stack:", ",".join(loaded) or "none", flush=True)
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()

asyncio.run(serve(wire(Settings()), on_ready=ready))
"""


def _loaded(database_url: str, data_dir: Path, http_listen: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    env.update(
        LEDGER_DATABASE_URL=database_url,
        LEDGER_DATA_DIR=str(data_dir),
        LEDGER_ADMIN_TOKEN="dashboard-off-admin",
        LEDGER_LISTEN="127.0.0.1:0",
        LEDGER_HTTP_LISTEN=http_listen,
        LEDGER_VIEWS="off",
        LEDGER_POOL_SIZE="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", SERVE_AND_REPORT],
        env=env,
        cwd=data_dir,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,  # its output says what it loaded, whatever its exit
    )
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("web stack:")]
    assert lines, f"the server never came up:\n{done.stdout}\n{done.stderr}"
    return lines[0].removeprefix("web stack:").strip()


@pytest.mark.parametrize(
    ("http_listen", "expected"),
    [("off", "none"), ("127.0.0.1:0", ",".join(WEB_STACK))],
    ids=["dashboard off", "dashboard on"],
)
def test_the_web_stack_loads_only_with_the_dashboard(
    database_url: str, tmp_path: Path, http_listen: str, expected: str
) -> None:
    assert _loaded(database_url, tmp_path, http_listen) == expected
