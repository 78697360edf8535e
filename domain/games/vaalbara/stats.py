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

from domain.contract.core import ChanceOutcome, EventFacet, GameFacts, shuffle_outcomes
from domain.games.stats_hooks import ByEvent, seat_facts

from . import events as ev
from .content import LANDS
from .state import VaalbaraState


def facts(setup: Any, state: VaalbaraState) -> GameFacts:
    return seat_facts(
        state.round,
        (
            {
                "clan": p.clan,
                "land_types": str(len({LANDS[c].type for c in p.realm if c in LANDS})),
            }
            for p in state.players
        ),
    )


event_facets = ByEvent[EventFacet](
    {
        ev.CharactersRevealed: lambda e: tuple(
            EventFacet(key="character_played", value=name, seat=seat)
            for seat, name in enumerate(e.characters)
            if name
        ),
        ev.LandTaken: lambda e: (
            (EventFacet(key="land_taken", value=LANDS[e.card].type, seat=e.seat),)
            if e.card in LANDS
            else ()
        ),
    }
)

chance_outcomes = ByEvent[ChanceOutcome](
    {
        ev.LandDeckShuffled: lambda e: shuffle_outcomes("land_deck", e.cards),
        ev.ClanDeckShuffled: lambda e: shuffle_outcomes("clan_deck", e.cards),
    }
)

CHANCE_EVENTS = chance_outcomes.events
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""
