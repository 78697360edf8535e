"""A smaller Hypothesis run of complete random games through the real ledger."""

from __future__ import annotations

import random
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.audit.game_audit import audit_records
from domain.games import find_game
from tests.support.examples import every_example
from tests.support.sizes import examples

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def second_ledger(settings):
    """Another process on the same database: its cache never saw these games."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings.model_copy(update={"cache_size": 1}))
    yield app
    app.close()


SETUPS = every_example()
"""Every declared example of every registered game (``Ruleset.examples``)."""


@examples(12)
@given(choice=st.sampled_from(SETUPS), seed=st.integers(0, 2**32))
def test_random_games_through_postgres_replay_and_audit(
    ledger, second_ledger, choice, seed
):
    game_type, setup = choice
    ruleset = find_game(game_type)
    created = ledger.create_game(game_type, setup, entropy=(str(seed),))
    rnd = random.Random(seed)
    for _ in range(5000):
        game = ledger.load(created.game_id)
        if game.is_over:
            break
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
    live = ledger.load(created.game_id)
    assert live.is_over
    rebuilt = second_ledger.load(created.game_id)  # new process: snapshot + replay
    assert rebuilt.state == live.state and rebuilt.outcome == live.outcome
    payloads = [
        e.payload
        for e in second_ledger.store.events(created.game_id)
        if hasattr(e, "payload")
    ]
    assert ruleset.replay(ruleset.initial_state(live.setup), payloads) == live.state
    report = audit_records(str(created.game_id), ledger.read_records(created.game_id))
    assert report.ok, report.failures
