"""Fixtures for the dashboard's browser tests: the app over HTTP and headless Chromium.

Chromium is Debian's (``/usr/bin/chromium``), driven by Python Playwright;
no browser is ever downloaded.  Screenshots go to ``docs/dashboard/`` only
when ``LEDGER_SCREENSHOTS=1``, so ordinary runs never dirty the tree.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "dashboard"


@pytest.fixture(scope="module")  # as grpc_server, whose database it shows
def dashboard_url(ledger: Any, grpc_server: Any) -> Iterator[str]:
    """The dashboard on a free port, on the same database as ``grpc_server``."""
    from services.dashboard.serve import start

    loop = asyncio.new_event_loop()
    holder: dict[str, Any] = {}
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        holder["http"] = http = loop.run_until_complete(start(ledger, "127.0.0.1:0"))
        ready.set()
        assert http is not None  # an address was given, so start() serves
        loop.run_until_complete(http.task)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(30), "the dashboard did not start"
    yield f"http://127.0.0.1:{holder['http'].port}"
    holder["http"].server.should_exit = True
    thread.join(10)
    holder["http"].reader.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Per module, not per session: Playwright's sync API keeps an event loop
    running in the main thread while it is open, and any later test that runs
    its own loop (``asyncio.run``) would then fail, in whatever order
    pytest-randomly picks."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    yield tab
    context.close()


def screenshot(page: Any, name: str, full_page: bool = True) -> None:
    """Refresh ``docs/dashboard/<name>.png`` when ``LEDGER_SCREENSHOTS=1``."""
    if os.environ.get("LEDGER_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)
