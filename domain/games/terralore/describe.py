"""Terralore's events in words, for a person reading the log.

A face-down plan reads as "commits a face-down plan" to everyone but its
owner; drawn cards as a count; a deck order only to admins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import InvalidCommandError
from domain.words.phrasebook import Phrasebook, Who
from domain.words.sentences import Names, counted, listing

from . import content
from . import events as ev
from .commands import PlaceCards, Play
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Command, Model


def _plays(plays: tuple[Play, ...]) -> str:
    return listing([f"{p.card} to the {p.lane.value} lane" for p in plays], "no card")


describe = Phrasebook(
    "terralore",
    redact,
    {
        ev.DeckShuffled: "{seat}'s deck is shuffled{order:shown}.",
        ev.TurnStarted: "Turn {turn} begins.",
        ev.PlacementCommitted: lambda e, who: (
            f"{who(e.seat)} commits a face-down plan."
            if e.hidden
            else f"{who(e.seat)} commits a plan: {_plays(e.plays)}."
        ),
        ev.PlacementRevealed: lambda e, who: (
            f"{who(e.seat)} reveals {_plays(e.plays)}"
            f"{f', discarding {listing(e.discards)}' if e.discards else ''}."
        ),
        ev.RevealOrderDecided: "{first} resolves first ({reason}[, rolls {rolls}]).",
        ev.CreaturePlayed: "{seat} plays {card} in the {lane} lane.",
        ev.SkillPlayed: "{seat} uses skill {card} in the {lane} lane.",
        ev.CreatureDestroyed: "{seat}'s {card} in the {lane} lane is destroyed ({reason}).",
        ev.CreatureExiled: "{seat}'s {card} in the {lane} lane is exiled.",
        ev.LaneBoosted: "{seat}'s {lane} lane gains {amount} this turn.",
        ev.CastleDamaged: "{seat}'s castle takes {amount} damage from {source} ({hp} HP left).",
        ev.CastleHealed: "{seat}'s castle heals {amount} ({hp} HP).",
        ev.CardsDiscarded: "{seat} discards {cards}.",
        ev.DeckRanOut: "{seat} must draw from an empty deck.",
        ev.GameEnded: lambda e, who: (
            f"The game ends ({e.reason}): {who.each(e.ranks, ' #')}."
        ),
    },
)
"""The ruleset's ``describe(event, viewer, names)``."""


@describe.on(ev.CardsDrawn)
def _(e: ev.CardsDrawn, who: Who) -> str:
    drawn = listing(e.cards) if e.cards else counted(e.count, "card")
    lost = f"; {listing(e.burned)} burn (hand full)" if e.burned else ""
    return f"{who(e.seat)} draws {drawn}{lost}."


@describe.on(ev.LanesCounted)
def _(e: ev.LanesCounted, who: Who) -> str:
    sides = "; ".join(
        f"{who(s)} attacks {a}, defends {d}"
        for s, (a, d) in enumerate(zip(e.attack, e.defense))
    )
    return f"The lanes are counted: {sides}."


# ------------------------------------------------------------------ moves


def _card(card_id: str, costs: bool = True) -> str:
    """A card by its printed name: ``Pyre Drake (creature, cost 3, 6 points)``."""
    try:
        card = content.card(card_id)
    except InvalidCommandError:
        return card_id
    if not costs:
        return card.name
    printed = [card.kind, f"cost {card.cost}"]
    if card.kind == "creature":
        printed.append(counted(card.points, "point"))
    return f"{card.name} ({', '.join(printed)})"


def describe_move(command: Command, seat: int, view: Model, names: Names) -> str:
    """The ruleset's ``describe_move``: a turn's secret plan as its player reads it.

    >>> describe_move(PlaceCards(), 0, None, {})
    'play no card this turn'
    >>> describe_move(
    ...     PlaceCards(plays=(Play(card="pyre-drake", lane="defending"),),
    ...                discards=("ember-imp",)), 0, None, {})
    'play Pyre Drake (creature, cost 3, 6 points) face down in your defending lane; pay by discarding Ember Imp'
    """
    if not isinstance(command, PlaceCards):
        raise TypeError(f"terralore has no move {type(command).__name__}")
    if not command.plays:
        played = "play no card this turn"
    else:
        played = "play " + listing(
            [
                f"{_card(p.card)} face down in your {p.lane.value} lane"
                for p in command.plays
            ]
        )
    paid = (
        f"; pay by discarding {listing([_card(c, False) for c in command.discards])}"
        if command.discards
        else ""
    )
    room = (
        "; make room by destroying your "
        + listing([_card(c, False) for c in command.destroys])
        if command.destroys
        else ""
    )
    return played + paid + room
