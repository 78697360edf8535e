"""Scenario 1's lag probe counts only what a view has yet to apply.

A view of the ledger's own events leaves its tracked position behind while
only moves arrive (``projections.runner``); the probe must not read those
moves as lag, and must still see a game's conclusion the view has not applied.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bench.projection_catchup import lag_probe
from projections.ratings import RatingsView
from projections.runner import ViewRunner, ledger_head
from tests.support.database import scratch_database
from tests.support.random_moves import play_random

pytestmark = pytest.mark.postgres


def _sample(url: str) -> float | None:
    async def once() -> float | None:
        probe = lag_probe(url)
        assert probe is not None
        try:
            return await probe.sample()
        finally:
            await probe.close()

    return asyncio.run(once())


def test_moves_a_view_does_not_read_are_no_lag_and_a_pending_conclusion_is(
    server_url, settings
) -> None:
    from services.runtime.bootstrap import build_ledger

    with scratch_database(server_url) as url:
        ledger = build_ledger(settings, url)
        try:
            rnd = random.Random(7)
            created = ledger.create_game(
                "terralore", {"players": 2}, player_ids=("lag-a", "lag-b")
            )
            runner = ViewRunner(ledger.datastore, RatingsView())
            runner.ensure_tables()
            runner.catch_up()
            assert play_random(ledger, created.game_id, rnd, moves=5) == 5
            assert (
                runner.step(ledger_head=ledger_head(ledger.datastore)) == 0
            )  # its tracked position stays behind the moves
            assert _sample(url) == 0.0
            play_random(ledger, created.game_id, rnd)
            pending = _sample(url)
            assert pending is not None and pending > 0.0
            runner.catch_up()
            assert _sample(url) == 0.0
        finally:
            ledger.close()
