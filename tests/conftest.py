"""Shared pytest configuration: Hypothesis profiles and the database fixtures.

The ``ci`` profile (default) has no deadline: property tests play whole games
and timing belongs in ``bench/``, never in tests.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

pytest_plugins = ["tests.support.database", "tests.support.server"]
