"""The e2e tier (the real gRPC server): every test here is marked ``e2e``,
so ``pytest tests/e2e`` and ``pytest -m e2e`` select the same tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.dashboard import browser, dashboard_url, page  # noqa: F401
from tests.e2e.hand_clock import clock, other_server, server  # noqa: F401

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
