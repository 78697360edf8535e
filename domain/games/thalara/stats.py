"""Thalara's statistics hooks: game facts, countable event facets, chance draws.

Why here and not in the projection: only the ruleset knows what a round, a
character or a shuffle is; the stats and fairness views stay game-agnostic and
just call these pure functions (see ``domain.contract.core.Ruleset``).

Decisions:

- The first player is not kept in the final state (``starter`` follows the
  rounds), so ``facts`` leaves it ``None`` and ``event_facets`` reports it as
  a ``first_player`` facet of ``FirstPlayerChosen``; the stats view uses that
  facet when ``facts`` has no first player.
- Card ids are counted by content id (``r07@1`` and ``a05#2`` count as ``r07``
  and ``a05``) plus a ``card_kind`` facet (remnant/artifact).
- Shuffles: each item (named by its rank in sorted order, which does not depend
  on the shuffle) lands at a position; the pair is encoded as
  ``value = rank * n + position`` with ``outcomes = n * n``.  Counting only the
  positions would be useless: every shuffle fills each position exactly once,
  so that histogram is uniform even for a rigged shuffle.  The fairness view
  tests the (rank, position) table with ``(n - 1)**2`` degrees of freedom.
- The first-player draw is not reported: ``FirstPlayerChosen`` does not carry
  the player count, so its ``outcomes`` cannot be known from the event alone.
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import ChanceOutcome, EventFacet, GameFacts, shuffle_outcomes
from domain.games.stats_hooks import ByEvent, seat_facts

from . import events as ev
from .state import ThalaraState


def facts(setup: Any, state: ThalaraState) -> GameFacts:
    return seat_facts(
        state.round,
        ({"character": p.character, "mode": state.mode} for p in state.players),
    )


def content_id(card: str) -> str:
    """``r07@1`` -> ``r07``; ``a05#2`` -> ``a05``."""
    return card.split("@", 1)[0].split("#", 1)[0]


def card_kind(card: str) -> str:
    return "remnant" if "@" in card else "artifact"


event_facets = ByEvent[EventFacet](
    {
        ev.CardPlayed: lambda e: (
            EventFacet(key="card_played", value=content_id(e.card), seat=e.seat),
            EventFacet(key="card_kind", value=card_kind(e.card), seat=e.seat),
        ),
        ev.SpellActivated: lambda e: (
            EventFacet(key="spell_activated", value=e.spell, seat=e.seat),
        ),
        ev.FirstPlayerChosen: lambda e: (
            EventFacet(key="first_player", value=str(e.seat), seat=e.seat),
        ),
    }
)

chance_outcomes = ByEvent[ChanceOutcome](
    {
        ev.ArtifactsShuffled: lambda e: shuffle_outcomes("artifact", e.order),
        ev.SupplyShuffled: lambda e: shuffle_outcomes("supply", e.order),
    }
)

CHANCE_EVENTS = chance_outcomes.events
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""
