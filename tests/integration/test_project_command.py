"""``ledger project`` as its own process: it projects every view and, given a
metrics port (``--metrics-port`` or ``LEDGER_METRICS_PORT``), serves the lag
and position gauges for Prometheus; ``--metrics-port 0`` turns that off."""

from __future__ import annotations

import re
import secrets
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from projections import registry
from tests.support.server import start_project, stop

pytestmark = pytest.mark.postgres

GAUGE = re.compile(
    r'^(ledger_projection_(?:lag_events|position))\{view="([a-z_]+)"\} (\S+)$',
    re.MULTILINE,
)


@pytest.fixture(scope="module")
def project_db(server_url: str, settings) -> Iterator[tuple[str, int]]:
    """A database of its own with a game in its log: ``(url, head position)``."""
    from services.runtime.bootstrap import build_ledger

    name = f"ledger_project_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo("", **{**conninfo_to_dict(server_url), "dbname": name})
    ledger = build_ledger(settings, url)
    try:
        ledger.create_game("terralore", {"players": 2}, player_ids=("ann", "bob"))
        with ledger.datastore.transaction(commit=False) as curs:
            curs.execute("SELECT max(notification_id) AS head FROM ledger_events")
            head = curs.fetchone()["head"]
        assert head and head > 0
        yield url, head
    finally:
        ledger.close()
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def running(lines: list[bytes]) -> bool:
    """Whether ``project`` said it is projecting (its metrics decision is behind it)."""
    return any(b"projecting" in line for line in lines)


def tracked(url: str) -> dict[str, int]:
    try:
        with psycopg.connect(url) as conn:
            return dict(
                conn.execute(
                    "SELECT view, position FROM projection_tracking"
                ).fetchall()
            )
    except psycopg.errors.UndefinedTable:
        return {}


def scrape(port: int) -> dict[tuple[str, str], float]:
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/metrics", timeout=2
    ) as response:
        text = response.read().decode()
    return {(metric, view): float(value) for metric, view, value in GAUGE.findall(text)}


def wait_for(process: subprocess.Popen[bytes], check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            code, err = stop(process)
            pytest.fail(f"`ledger project` exited with {code}:\n{err}")
        try:
            result = check()
        except (OSError, urllib.error.URLError):
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            code, err = stop(process)
            pytest.fail(f"timed out; `ledger project` said:\n{err}")
        time.sleep(0.2)


@pytest.mark.parametrize("how", ["option", "setting"])
def test_project_serves_lag_and_position_gauges_for_every_view(project_db, how):
    url, head = project_db
    port = free_port()
    if how == "option":  # the option wins over the setting
        process, lines = start_project(
            url,
            ["--metrics-port", str(port)],
            {"LEDGER_METRICS_PORT": str(free_port())},
        )
    else:
        process, lines = start_project(url, [], {"LEDGER_METRICS_PORT": str(port)})
    try:
        views = set(registry.VIEWS)

        def caught_up() -> dict[tuple[str, str], float] | None:
            gauges = scrape(port)
            done = all(
                gauges.get(("ledger_projection_position", v)) == head
                and gauges.get(("ledger_projection_lag_events", v)) == 0
                for v in views
            )
            return gauges if done else None

        gauges = wait_for(process, caught_up)
        assert {view for _, view in gauges} == views
        assert tracked(url) == {
            v: head for v in views
        }  # the gauges tell what the views committed
        wait_for(process, lambda: running(lines))
    finally:
        code, err = stop(process)
    assert code == 0, err


def test_metrics_port_zero_turns_the_endpoint_off(project_db):
    url, head = project_db
    port = free_port()
    process, lines = start_project(
        url, ["--metrics-port", "0"], {"LEDGER_METRICS_PORT": str(port)}
    )
    try:
        wait_for(
            process,
            lambda: (
                running(lines) and tracked(url) == {v: head for v in registry.VIEWS}
            ),
        )
        with pytest.raises(urllib.error.URLError):
            scrape(port)
    finally:
        code, err = stop(process)
    assert code == 0, err
