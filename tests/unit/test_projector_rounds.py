"""The projector's rounds: commits that arrive within the spacing share one round."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from types import SimpleNamespace

from projections.projector import Projector


class LogWithLedgerHead:
    """Stands in for the datastore: the log's last ledger event is at ``head``."""

    def __init__(self, head: int) -> None:
        self.head = head
        self.reads = 0

    @contextmanager
    def get_connection(self):
        self.reads += 1
        row = {"head": self.head}
        yield SimpleNamespace(execute=lambda *a: SimpleNamespace(fetchone=lambda: row))


class CountingRunner:
    """Stands in for a view's runner: counts the rounds that step it."""

    events_table = "ledger_events"
    ledger_only = True

    def __init__(self, name: str = "counted", datastore: object = None) -> None:
        self.view = SimpleNamespace(name=name)
        self.datastore = datastore
        self.steps = 0
        self.heads: list[int | None] = []

    def ensure_tables(self) -> None:
        pass

    def step(self, ledger_head: int | None = None) -> int:
        self.steps += 1
        self.heads.append(ledger_head)
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


def test_a_round_reads_the_ledger_head_once_for_every_view():
    log = LogWithLedgerHead(7)
    runners = [CountingRunner("a", log), CountingRunner("b", log)]
    wake = threading.Event()
    projector = Projector(runners, None, wake=wake, spacing=0.0)
    projector.start()
    try:
        deadline = time.monotonic() + 5
        while runners[1].steps < 3 and time.monotonic() < deadline:
            wake.set()
            time.sleep(0.01)
    finally:
        projector.stop()
    rounds = runners[1].steps
    assert rounds >= 3
    assert set(runners[0].heads) == set(runners[1].heads) == {7}
    assert rounds <= log.reads <= rounds + 1  # one read a round, not one a view
