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

from domain.contract.core import (
    ChanceOutcome,
    Event,
    EventFacet,
    GameFacts,
    SeatFacet,
    shuffle_outcomes,
)

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
    facets = tuple(
        SeatFacet(seat=seat, key="deck", value=name)
        for seat, name in enumerate(deck_names(setup))
    )
    return GameFacts(rounds=state.turn, first_player=None, seat_facets=facets)


def event_facets(event: Event) -> tuple[EventFacet, ...]:
    if isinstance(event, (ev.CreaturePlayed, ev.SkillPlayed)):
        return (EventFacet(key="card_played", value=event.card, seat=event.seat),)
    return ()


CHANCE_EVENTS = (ev.RevealOrderDecided, ev.DeckShuffled)
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""


def chance_outcomes(event: Event) -> tuple[ChanceOutcome, ...]:
    if isinstance(event, ev.RevealOrderDecided):
        return tuple(
            ChanceOutcome(distribution="d6", value=r - 1, outcomes=DIE)
            for r in event.rolls
        )
    if isinstance(event, ev.DeckShuffled):
        return shuffle_outcomes("deck", event.order)
    return ()
