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

from domain.contract.core import (
    ChanceOutcome,
    Event,
    EventFacet,
    GameFacts,
    SeatFacet,
    shuffle_outcomes,
)

from . import events as ev
from .state import ThalaraState


def facts(setup: Any, state: ThalaraState) -> GameFacts:
    facets = []
    for seat, player in enumerate(state.players):
        facets.append(SeatFacet(seat=seat, key="character", value=player.character))
        facets.append(SeatFacet(seat=seat, key="mode", value=state.mode))
    return GameFacts(rounds=state.round, first_player=None, seat_facets=tuple(facets))


def content_id(card: str) -> str:
    """``r07@1`` -> ``r07``; ``a05#2`` -> ``a05``."""
    return card.split("@", 1)[0].split("#", 1)[0]


def card_kind(card: str) -> str:
    return "remnant" if "@" in card else "artifact"


def event_facets(event: Event) -> tuple[EventFacet, ...]:
    if isinstance(event, ev.CardPlayed):
        return (
            EventFacet(
                key="card_played", value=content_id(event.card), seat=event.seat
            ),
            EventFacet(key="card_kind", value=card_kind(event.card), seat=event.seat),
        )
    if isinstance(event, ev.SpellActivated):
        return (EventFacet(key="spell_activated", value=event.spell, seat=event.seat),)
    if isinstance(event, ev.FirstPlayerChosen):
        return (EventFacet(key="first_player", value=str(event.seat), seat=event.seat),)
    return ()


CHANCE_EVENTS = (ev.ArtifactsShuffled, ev.SupplyShuffled)
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""


def chance_outcomes(event: Event) -> tuple[ChanceOutcome, ...]:
    if isinstance(event, ev.ArtifactsShuffled):
        return shuffle_outcomes("artifact", event.order)
    if isinstance(event, ev.SupplyShuffled):
        return shuffle_outcomes("supply", event.order)
    return ()
