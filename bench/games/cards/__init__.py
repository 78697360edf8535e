"""Cards: the boardgame.io peer benchmark's game, hosted by the ledger.

Two players alternately play a card numbered 1..10; the game ends after
exactly :data:`~bench.games.cards.models.MOVES` moves, never earlier, and the
higher total of played cards wins (equal totals: a draw).  Nothing is hidden.
It mirrors the peer's ``game.mjs`` (``MAX_MOVES=100``) so ``ledger bench`` can
play the same game on both servers (:mod:`bench.peer_game`).

Registered like the tic-tac-toe test game, from outside ``domain/games``:
``LEDGER_GAMES=cards=bench.games.cards``.
"""

from __future__ import annotations

from domain.contract.core import Example, Ruleset

from . import rules
from .models import COMMANDS, EVENTS, CardsSetup, CardsState, CardsView

GAME: Ruleset[CardsState] = Ruleset(
    name="cards",
    title="Cards",
    min_players=2,
    max_players=2,
    setup_model=CardsSetup,
    command_types=COMMANDS,
    event_types=EVENTS,
    view_model=CardsView,
    state_model=CardsState,
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
    content_label="none (numbered cards)",
    examples=(Example("cards-2p", {"players": 2}),),
    proto_module="bench.games.cards.cards_pb2",
)

__all__ = ["GAME"]
