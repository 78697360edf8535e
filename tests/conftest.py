"""Shared pytest configuration: Hypothesis profiles and the database fixtures.

Profiles (see :mod:`tests.support.sizes`): ``ci`` (default, small), ``dev`` and
``full`` (``HYPOTHESIS_PROFILE=full``: every property at its full size).  None
has a deadline: property tests play whole games and timing belongs in
``bench/``, never in tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.sizes import load_profile

load_profile()

pytest_plugins = [
    "tests.support.database",
    "tests.support.server",
    "tests.support.served",
]


@pytest.fixture(autouse=True, scope="session")
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A data directory of the test session's own, unless one is given.

    Why: a CLI command run in-process reads ``Settings()``, and without
    ``LEDGER_DATA_DIR`` that is the user's own data directory, where a
    ``ledger serve`` they ran has left its admin token; a command whose token
    defaults to that one (``ledger replay``) would then send a token the
    test's server never issued.  Tests that start servers set their own
    directory; this keeps the rest from reading the user's.
    """
    if os.environ.get("LEDGER_DATA_DIR"):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LEDGER_DATA_DIR", str(tmp_path_factory.mktemp("ledger-data")))
        yield
