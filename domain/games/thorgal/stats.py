"""Thorgal's statistics hooks: game facts, countable event facets, chance draws.

Why here: only the ruleset knows rounds, characters, decks and combat dice;
the stats and fairness views stay game-agnostic (see ``domain.contract.core.Ruleset``).

Decisions:

- ``rounds`` is the Round marker at the end (``state.round``): an adventure
  lost "out of time" in round 8 played 8 rounds.
- The first player passes clockwise every round, so the final state no longer
  says who started; like Thalara, ``facts`` leaves it ``None`` and
  ``AdventureStarted`` reports a ``first_player`` event facet, which the stats
  view stores as the game's first player (and the fairness RPC tests that
  draw per table size from the stats view).  It is not repeated as a chance
  outcome, so the same draw is not tested twice.
- Seat facet ``character``.  Event facets: ``action_card=<card>`` per chip
  placed, ``item_used=<item>``, and ``combat=won|lost`` (no seat).
- Chance, every source the decider draws from (``rules.start``,
  ``engine.Ctx.draw``, ``effects`` and ``combat``):

  * the combat roll (``DiceRolled``) and each re-roll (``DieRerolled``): one
    ``randbelow(6)`` face index per die, whatever its colour (colours differ
    in what the faces show, not in how a face is picked), so ``d6`` with
    ``value = face`` of 6;
  * every deck shuffle (the opening ones and each reshuffle of a discard
    pile): each card's (sorted rank, position) cell, ``value = rank * n +
    position`` of ``n * n`` outcomes in ``<deck>_shuffle:n=<n>``, as for the
    other games (positions alone would be uniform even for a rigged shuffle).
    Draws take the top card of a shuffled deck, so they add no chance of
    their own and are not reported separately;
  * a shuffle whose order was redacted (``hidden``) or has fewer than 2
    cards reports nothing.

  Not reported: the ``roll_wound`` effect's die (a face index drawn in
  ``effects``) is recorded only as the Wound shape it shows, and faces repeat
  shapes, so the drawn index cannot be recovered from the events.
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import ChanceOutcome, EventFacet, GameFacts, shuffle_outcomes
from domain.games.stats_hooks import ByEvent, seat_facts

from . import events as ev
from .state import ThorgalState

DIE_FACES = 6


def facts(setup: Any, state: ThorgalState) -> GameFacts:
    return seat_facts(state.round, ({"character": h.character} for h in state.heroes))


event_facets = ByEvent[EventFacet](
    {
        ev.AdventureStarted: lambda e: (
            EventFacet(key="first_player", value=str(e.first), seat=e.first),
        ),
        ev.ChipPlaced: lambda e: (
            EventFacet(key="action_card", value=e.card, seat=e.seat),
        ),
        ev.ItemUsed: lambda e: (
            EventFacet(key="item_used", value=e.item, seat=e.seat),
        ),
        ev.CombatEnded: lambda e: (
            EventFacet(key="combat", value="won" if e.won else "lost"),
        ),
    }
)


def die(face: int) -> ChanceOutcome:
    return ChanceOutcome(distribution="d6", value=face, outcomes=DIE_FACES)


chance_outcomes = ByEvent[ChanceOutcome](
    {
        ev.DiceRolled: lambda e: tuple(die(face) for face in e.faces),
        ev.DieRerolled: lambda e: (die(e.face),),
        ev.DeckShuffled: lambda e: (
            () if e.hidden else shuffle_outcomes(e.deck, e.cards)
        ),
    }
)

CHANCE_EVENTS = chance_outcomes.events
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""
