"""The projector's rounds: commits that arrive within the spacing share one round."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

from projections.projector import Projector


class CountingRunner:
    """Stands in for a view's runner: counts the rounds that step it."""

    def __init__(self) -> None:
        self.view = SimpleNamespace(name="counted")
        self.steps = 0

    def ensure_tables(self) -> None:
        pass

    def step(self) -> int:
        self.steps += 1
        return 0


def rounds_for_wakeups(spacing: float, wakeups: int, every: float) -> int:
    runner, wake = CountingRunner(), threading.Event()
    projector = Projector([runner], None, wake=wake, spacing=spacing)  # type: ignore[list-item]
    projector.start()
    try:
        for _ in range(wakeups):
            wake.set()
            time.sleep(every)
    finally:
        projector.stop()
    return runner.steps


def test_wakeups_within_the_spacing_share_a_round():
    # 40 commits over about 0.4 s: with 0.25 s between rounds, at most 3 rounds
    assert rounds_for_wakeups(0.25, 40, 0.01) <= 3


def test_without_spacing_every_wakeup_gets_its_own_round():
    # the contrast that shows the spacing is what coalesces them
    assert rounds_for_wakeups(0.0, 40, 0.01) >= 20
