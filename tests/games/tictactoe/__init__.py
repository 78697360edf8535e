"""Tic-tac-toe: the smallest game the ledger can host, registered from ``tests/``.

It proves that adding a game needs its folder, its ``.proto`` and one
registry line (here ``LEDGER_GAMES=tictactoe=tests.games.tictactoe``, since
it does not live in ``domain/games``).  ``docs/adding-a-game.md`` walks
through it file by file.
"""

from __future__ import annotations

from domain.contract.core import Example, Ruleset

from . import rules
from .models import (
    COMMAND_TYPES,
    EVENT_TYPES,
    TicTacToeSetup,
    TicTacToeState,
    TicTacToeView,
)

GAME: Ruleset[TicTacToeState] = Ruleset(
    name="tictactoe",
    title="Tic-tac-toe",
    min_players=2,
    max_players=2,
    setup_model=TicTacToeSetup,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    view_model=TicTacToeView,
    state_model=TicTacToeState,
    initial_state=rules.initial_state,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    view=rules.view,
    redact=rules.redact,
    legal_commands=rules.legal_commands,
    to_act=rules.to_act,
    is_over=rules.is_over,
    outcome=rules.outcome,
    content_label="none (no cards)",
    examples=(Example("tictactoe-2p", {"players": 2}),),
    proto_module="tests.games.tictactoe.tictactoe_pb2",
)

__all__ = ["GAME"]
