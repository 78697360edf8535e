"""How many examples a property runs: small by default, the full size on demand.

An explicit ``@settings(max_examples=N)`` overrides the loaded Hypothesis profile,
so a profile could never shrink or grow a run.  Properties declare their *full*
size with :func:`examples` instead, and the profile decides:

- ``ci`` (default): at most ``CI_EXAMPLES`` per property, so ``pytest`` stays fast;
- ``dev``: at most 3, for a quick local loop;
- ``full``: each property's full size (``HYPOTHESIS_PROFILE=full pytest tests/unit``,
  or ``pytest --hypothesis-profile=full``), which ``.ci/run`` adds when it has time.

Every property always runs at least its CI size; the full sizes are where the
"≥ 300 games per mode" runs live.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 10
FULL = 1_000_000  # "no cap": each property runs its declared full size

settings.register_profile(
    "ci",
    deadline=None,  # property tests play whole games; timing belongs in bench/
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    max_examples=CI_EXAMPLES,
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=3)
settings.register_profile("full", parent=settings.get_profile("ci"), max_examples=FULL)


def load_profile() -> None:
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(full: int) -> settings:
    """``@examples(full)``: ``full`` examples under the ``full`` profile, otherwise
    the loaded profile's ``max_examples`` (never more than ``full``)."""
    return settings(max_examples=min(full, settings().max_examples))
