"""§1's differential: a spectator's Stats, Rating and Replay answers are
byte-identical before and after any hidden event of a running game.

For every game type and table shape, a game with player ids is created and
walked move by move; after the opening (every game shuffles something) and
after each move, every Stats/Rating RPC about that game type and its players
and the spectator's replay of the versions seen before are asked again with
no token, once the views have caught up to the move, and must not change by
one byte.  Once the game ends the same answers must change (the game is
counted), which shows the comparison can fail.
"""

from __future__ import annotations

import random
import uuid

import pytest

from domain.contract.core import SPECTATOR
from domain.games import find_game
from domain.ledger.aggregate import Game
from services.api.client import create, play_one, play_to_end
from tests.e2e.leak_probe import (
    MOVES,
    SETUP_IDS,
    SETUPS,
    Reader,
    log_head,
    spectator_answers,
    without_started,
)
from tests.support.database import ledger_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def settings(quiet_settings):
    """A database of this module's own: see ``quiet_settings``."""
    return quiet_settings


@pytest.fixture(scope="module")
def ledger(settings):
    with ledger_for(settings) as app:
        yield app


def is_hidden(ruleset, event) -> bool:
    """Whether a spectator sees less of ``event`` than the admin, or it drew chance."""
    if not isinstance(event, Game.Decided):
        return False
    payload = event.payload
    return ruleset.redact(payload, SPECTATOR) != payload or bool(
        ruleset.chance_outcomes and ruleset.chance_outcomes(payload)
    )


@pytest.mark.parametrize(("game_type", "setup"), SETUPS, ids=SETUP_IDS)
def test_no_spectator_answer_moves_with_a_running_games_hidden_events(
    grpc_server, ledger, game_type, setup
):
    reader = Reader(grpc_server.channel)
    ruleset = find_game(game_type)
    players = [f"diff-{uuid.uuid4().hex[:8]}" for _ in range(setup["players"])]
    before = spectator_answers(reader, game_type, players, log_head(ledger))
    table = create(grpc_server, game_type, player_ids=tuple(players), **setup)
    game_id = uuid.UUID(table.game_id)
    opened = spectator_answers(reader, game_type, players, log_head(ledger))
    assert without_started(opened) == without_started(before)
    hidden = sum(is_hidden(ruleset, e) for e in ledger.store.events(game_id))
    assert hidden, "the opening recorded nothing hidden"

    rnd = random.Random(11)
    seen = ledger.load(game_id).version
    previous = spectator_answers(
        reader, game_type, players, log_head(ledger), table.game_id, seen
    )
    for _ in range(MOVES):
        response = play_one(grpc_server, table, rnd)
        if response is None or response.game.status == "ended":
            break
        hidden += sum(is_hidden(ruleset, e) for e in ledger.store.events(game_id, seen))
        now = spectator_answers(
            reader, game_type, players, log_head(ledger), table.game_id, seen
        )
        assert now == previous, f"after {table.log[-1]}"
        seen = response.last_version
        previous = spectator_answers(
            reader, game_type, players, log_head(ledger), table.game_id, seen
        )

    play_to_end(grpc_server, table, seed=3)
    ended = spectator_answers(reader, game_type, players, log_head(ledger))
    assert ended["GetFairness"] != opened["GetFairness"]
    assert (
        ended[f"GetPlayerHistory:{players[0]}"]
        != opened[f"GetPlayerHistory:{players[0]}"]
    )
