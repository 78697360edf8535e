"""Terralore's events in words, for a person reading the log.

A face-down plan reads as "commits a face-down plan" to everyone but its
owner; drawn cards as a count; a deck order only to admins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.sentences import Names, counted, listing, seat_name

from . import events as ev
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer

    from .commands import Lane, Play


def _lane(lane: Lane) -> str:
    return f"the {lane.value} lane"


def _plays(plays: tuple[Play, ...]) -> str:
    return listing([f"{p.card} to the {p.lane.value} lane" for p in plays], "no card")


def describe(event: Event, viewer: Viewer, names: Names) -> str:
    """One sentence for ``event`` as ``viewer`` may see it."""
    event = redact(event, viewer)

    def who(seat: int | None) -> str:
        return seat_name(names, seat)

    match event:
        case ev.DeckShuffled(seat=seat, order=order):
            shown = f": {listing(order)}" if order else ""
            return f"{who(seat)}'s deck is shuffled{shown}."
        case ev.TurnStarted(turn=turn):
            return f"Turn {turn} begins."
        case ev.CardsDrawn(seat=seat, count=count, cards=cards, burned=burned):
            drawn = listing(cards) if cards else counted(count, "card")
            lost = f"; {listing(burned)} burn (hand full)" if burned else ""
            return f"{who(seat)} draws {drawn}{lost}."
        case ev.PlacementCommitted(seat=seat, plays=plays, hidden=hidden):
            if hidden:
                return f"{who(seat)} commits a face-down plan."
            return f"{who(seat)} commits a plan: {_plays(plays)}."
        case ev.PlacementRevealed(seat=seat, plays=plays, discards=discards):
            paid = f", discarding {listing(discards)}" if discards else ""
            return f"{who(seat)} reveals {_plays(plays)}{paid}."
        case ev.RevealOrderDecided(first=first, reason=reason, rolls=rolls):
            dice = f", rolls {listing(rolls)}" if rolls else ""
            return f"{who(first)} resolves first ({reason}{dice})."
        case ev.CreaturePlayed(seat=seat, lane=lane, card=card):
            return f"{who(seat)} plays {card} in {_lane(lane)}."
        case ev.SkillPlayed(seat=seat, lane=lane, card=card):
            return f"{who(seat)} uses skill {card} in {_lane(lane)}."
        case ev.CreatureDestroyed(seat=seat, lane=lane, card=card, reason=reason):
            return f"{who(seat)}'s {card} in {_lane(lane)} is destroyed ({reason})."
        case ev.CreatureExiled(seat=seat, lane=lane, card=card):
            return f"{who(seat)}'s {card} in {_lane(lane)} is exiled."
        case ev.LaneBoosted(seat=seat, lane=lane, amount=amount):
            return f"{who(seat)}'s {lane.value} lane gains {amount} this turn."
        case ev.CastleDamaged(seat=seat, amount=amount, hp=hp, source=source):
            return f"{who(seat)}'s castle takes {amount} damage from {source} ({hp} HP left)."
        case ev.CastleHealed(seat=seat, amount=amount, hp=hp):
            return f"{who(seat)}'s castle heals {amount} ({hp} HP)."
        case ev.CardsDiscarded(seat=seat, cards=cards):
            return f"{who(seat)} discards {listing(cards)}."
        case ev.LanesCounted(attack=attack, defense=defense):
            sides = "; ".join(
                f"{who(s)} attacks {a}, defends {d}"
                for s, (a, d) in enumerate(zip(attack, defense))
            )
            return f"The lanes are counted: {sides}."
        case ev.DeckRanOut(seat=seat):
            return f"{who(seat)} must draw from an empty deck."
        case ev.GameEnded(ranks=ranks, reason=reason):
            places = ", ".join(f"{who(s)} #{r}" for s, r in enumerate(ranks))
            return f"The game ends ({reason}): {places}."
    raise TypeError(f"no words for {type(event).__name__}")
