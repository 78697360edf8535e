"""Terralore's statistics hooks: game facts, countable event facets, chance draws.

Why here: only the ruleset knows turns, decks and dice; the views stay
game-agnostic (see ``domain.contract.core.Ruleset``).

Decisions:

- Rounds are turns; there is no fixed first player (the reveal order is
  decided every turn), so ``first_player`` is ``None``.
- Seat facet ``deck``: the sample deck's name, or ``custom`` for a card list.
- ``card_played=<card id>`` for every creature and skill that entered play.
- Chance: every d6 of ``RevealOrderDecided`` (``value = roll - 1`` of 6,
  re-rolls included: each roll is an independent fair draw) and each deck
  shuffle's (sorted rank, position) cells, ``value = rank * n + position`` of
  ``n * n`` outcomes (see the Thalara hooks for why positions alone are useless).
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import ChanceOutcome, EventFacet, GameFacts, shuffle_outcomes
from domain.games.stats_hooks import ByEvent, seat_facts

from . import content
from . import events as ev
from .state import TerraloreState

DIE = 6


def deck_names(setup: Any) -> tuple[str, ...]:
    defaults = content.default_deck_names()
    decks = getattr(setup, "decks", ()) or ()
    if not decks:
        return defaults
    return tuple(
        "custom" if d.cards else (d.name or defaults[seat])
        for seat, d in enumerate(decks)
    )


def facts(setup: Any, state: TerraloreState) -> GameFacts:
    return seat_facts(state.turn, ({"deck": name} for name in deck_names(setup)))


def _card_played(e: ev.CreaturePlayed | ev.SkillPlayed) -> tuple[EventFacet, ...]:
    return (EventFacet(key="card_played", value=e.card, seat=e.seat),)


event_facets = ByEvent[EventFacet](
    {ev.CreaturePlayed: _card_played, ev.SkillPlayed: _card_played}
)

chance_outcomes = ByEvent[ChanceOutcome](
    {
        ev.RevealOrderDecided: lambda e: tuple(
            ChanceOutcome(distribution="d6", value=r - 1, outcomes=DIE) for r in e.rolls
        ),
        ev.DeckShuffled: lambda e: shuffle_outcomes("deck", e.order),
    }
)

CHANCE_EVENTS = chance_outcomes.events
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""
