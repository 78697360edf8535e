"""Shared pytest configuration: Hypothesis profiles and the database fixtures.

Profiles (see :mod:`tests.support.sizes`): ``ci`` (default, small), ``dev`` and
``full`` (``HYPOTHESIS_PROFILE=full``: every property at its full size).  None
has a deadline: property tests play whole games and timing belongs in
``bench/``, never in tests.
"""

from __future__ import annotations

from tests.support.sizes import load_profile

load_profile()

pytest_plugins = [
    "tests.support.database",
    "tests.support.server",
    "tests.support.served",
]
