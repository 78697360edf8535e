"""Fixtures for e2e tests that move the clock by hand: the session ledger on a
:class:`ManualClock`, a server on it without a timekeeper of its own, and
another server's ledger over the same database and clock (its timekeeper).

``conftest.py`` offers them to every e2e module; each is module-scoped, so
every module that asks for one gets its own clock and server, and a module
that defines a fixture of the same name keeps its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.manual_clock import ManualClock
from tests.support.server import serve_in_process


@pytest.fixture(scope="module")
def clock(ledger: Any) -> Iterator[ManualClock]:
    manual = ManualClock()
    before, ledger.clock = ledger.clock, manual
    yield manual
    ledger.clock = before


@pytest.fixture(scope="module")
def server(settings: Any, ledger: Any, clock: ManualClock) -> Iterator[Any]:
    quiet = settings.model_copy(update={"timekeeper_interval": 0})
    with serve_in_process(quiet, ledger) as handle:
        yield handle


@pytest.fixture(scope="module")
def other_server(settings: Any, clock: ManualClock) -> Iterator[Any]:
    """Another server's ledger on the same database and clock (its timekeeper)."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    app.clock = clock
    yield app
    app.close()
