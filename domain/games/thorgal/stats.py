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

from domain.contract.core import (
    ChanceOutcome,
    Event,
    EventFacet,
    GameFacts,
    SeatFacet,
    shuffle_outcomes,
)

from . import events as ev
from .state import ThorgalState

DIE_FACES = 6


def facts(setup: Any, state: ThorgalState) -> GameFacts:
    facets = tuple(
        SeatFacet(seat=h.seat, key="character", value=h.character) for h in state.heroes
    )
    return GameFacts(rounds=state.round, first_player=None, seat_facets=facets)


def event_facets(event: Event) -> tuple[EventFacet, ...]:
    if isinstance(event, ev.AdventureStarted):
        return (
            EventFacet(key="first_player", value=str(event.first), seat=event.first),
        )
    if isinstance(event, ev.ChipPlaced):
        return (EventFacet(key="action_card", value=event.card, seat=event.seat),)
    if isinstance(event, ev.ItemUsed):
        return (EventFacet(key="item_used", value=event.item, seat=event.seat),)
    if isinstance(event, ev.CombatEnded):
        return (EventFacet(key="combat", value="won" if event.won else "lost"),)
    return ()


def die(face: int) -> ChanceOutcome:
    return ChanceOutcome(distribution="d6", value=face, outcomes=DIE_FACES)


CHANCE_EVENTS = (ev.DiceRolled, ev.DieRerolled, ev.DeckShuffled)
"""Where :func:`chance_outcomes` finds draws (the fairness view reads only these)."""


def chance_outcomes(event: Event) -> tuple[ChanceOutcome, ...]:
    if isinstance(event, ev.DiceRolled):
        return tuple(die(face) for face in event.faces)
    if isinstance(event, ev.DieRerolled):
        return (die(event.face),)
    if isinstance(event, ev.DeckShuffled) and not event.hidden:
        return shuffle_outcomes(event.deck, event.cards)
    return ()
