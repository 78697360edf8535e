"""Vaalbara's statistics hooks: game facts, countable event facets, chance draws.

Why here: only the ruleset knows clans, Land types and characters; the views
stay game-agnostic (see ``domain.contract.core.Ruleset``).

Decisions:

- There is no first player (turn order follows initiative each round), so
  ``first_player`` is ``None``.
- Seat facets: ``clan`` and ``land_types`` (distinct Land types in the final
  Realm, 0-6, the quantity the variety bonus rewards).
- Characters played are event facets of ``CharactersRevealed``
  (``character_played=<name>`` per seat, once per round); ``land_taken=<type>``
  counts Land actions.  The stats view also keeps them per game and seat, so
  win rate by character played comes from the same table as by clan.
- Shuffles: each card's (sorted rank, position) cell, ``value = rank * n +
  position`` of ``n * n`` outcomes (see the Thalara hooks for why positions
  alone are useless).
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

from . import events as ev
from .content import LANDS
from .state import VaalbaraState


def facts(setup: Any, state: VaalbaraState) -> GameFacts:
    facets = []
    for seat, player in enumerate(state.players):
        kinds = {LANDS[c].type for c in player.realm if c in LANDS}
        facets.append(SeatFacet(seat=seat, key="clan", value=player.clan))
        facets.append(SeatFacet(seat=seat, key="land_types", value=str(len(kinds))))
    return GameFacts(rounds=state.round, first_player=None, seat_facets=tuple(facets))


def event_facets(event: Event) -> tuple[EventFacet, ...]:
    if isinstance(event, ev.CharactersRevealed):
        return tuple(
            EventFacet(key="character_played", value=name, seat=seat)
            for seat, name in enumerate(event.characters)
            if name
        )
    if isinstance(event, ev.LandTaken) and event.card in LANDS:
        return (
            EventFacet(key="land_taken", value=LANDS[event.card].type, seat=event.seat),
        )
    return ()


CHANCE_EVENTS = (ev.LandDeckShuffled, ev.ClanDeckShuffled)
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""


def chance_outcomes(event: Event) -> tuple[ChanceOutcome, ...]:
    if isinstance(event, ev.LandDeckShuffled):
        return shuffle_outcomes("land_deck", event.cards)
    if isinstance(event, ev.ClanDeckShuffled):
        return shuffle_outcomes("clan_deck", event.cards)
    return ()
