"""The integration tier (real PostgreSQL): every test here is marked ``postgres``,
so ``pytest tests/integration`` and ``pytest -m postgres`` select the same tests."""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.postgres)
