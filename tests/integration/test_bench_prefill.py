"""Scenario 4's prefill always plays some complete games.

The capacity model divides by the games it added (events per complete game).
On a machine fast enough that the scenarios before had already filled the
log past the target, the prefill added none, and the full bench ended with a
division by zero after writing its results.
"""

from __future__ import annotations

import pytest

from bench.projection_catchup import prefill

pytestmark = pytest.mark.postgres


def test_a_log_already_past_the_target_still_gets_complete_games(
    isolated_ledger,
) -> None:
    mix = [
        (
            "thalara",
            {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]},
        )
    ]
    filled = prefill(isolated_ledger, mix, target=0, budget_s=60)
    assert filled["games_added"] >= 1
    assert filled["events_after"] > filled["events_before"]
