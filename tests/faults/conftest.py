"""Fault tests run against a PostgreSQL of their own (they stop and restart it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.scratch_postgres import ScratchPostgres, scratch_postgres


@pytest.fixture(scope="module")
def scratch_pg() -> Iterator[ScratchPostgres]:
    with scratch_postgres() as server:
        yield server
