"""Vaalbara's events in words, for a person reading the log.

Hidden facts read as what the table sees: a face-down character is "a
character", a VP gain the viewer may not see is "scores" without a number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.move_words import you
from domain.words.phrasebook import Phrasebook
from domain.words.sentences import Names, counted, listing

from . import events as ev
from .commands import (
    ChooseCharacter,
    DeclineFighter,
    GiveBardPoints,
    RevealFighter,
    SwapLands,
    SwapWithDeckBottom,
    TakeBackCharacter,
    TakeLand,
    TrackLand,
)
from .content import LANDS
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Command, Model


def _points(points: int | None) -> str:
    return "points" if points is None else counted(points, "point")


describe = Phrasebook(
    "vaalbara",
    redact,
    {
        ev.LandDeckShuffled: "The Land deck is shuffled{cards:shown}.",
        ev.ClanDeckShuffled: "{seat}'s clan deck is shuffled{cards:shown}.",
        ev.LandsDealt: "{cards} are dealt face up to row {row}.",
        ev.CharactersDrawn: "{seat} draws {cards:or count character}.",
        ev.RoundStarted: "Round {round} begins.",
        ev.CharacterChosen: lambda e, who: (
            f"{who(e.seat)} places {e.character or 'a character'} face down."
        ),
        ev.CharactersRevealed: "The characters are revealed: {characters:each}.",
        ev.TurnStarted: "{seat}'s turn begins.",
        ev.FighterCalled: lambda e, who: (
            f"A Fighter is played; {listing([who(s) for s in e.seats], 'nobody')}"
            " may answer."
        ),
        ev.FighterRevealed: "{seat} reveals a Fighter.",
        ev.FighterDeclined: "{seat} does not reveal a Fighter.",
        ev.PointsScored: lambda e, who: (
            f"{who(e.seat)} scores {_points(e.points)} ({e.reason})."
        ),
        ev.PointsStolen: lambda e, who: (
            f"{who(e.thief)} steals {_points(e.points)} from {who(e.victim)}."
        ),
        ev.LandTracked: "{seat} puts {card} on the deck; {new_card} takes its place.",
        ev.CharacterTakenBack: "{seat} takes {character} back to hand.",
        ev.LandsSwapped: "{seat} swaps {first} and {second}.",
        ev.RealmLandSwapped: "{seat} sends {card} under the deck and gains {new_card}.",
        ev.CharacterDiscarded: "{seat}'s {character} goes to the discard.",
        ev.LandTaken: "{seat} takes {card} into the Realm.",
        ev.RoundEnded: "Round {round} ends.",
        ev.GameEnded: "The game ends after round 9: {scores:each} VP.",
    },
)
"""The ruleset's ``describe(event, viewer, names)``."""


# ------------------------------------------------------------------ moves


def _land(card: str) -> str:
    """A Land as the table reads it: ``L12 (Forest 4)``, ``L05 (Meadow)``
    (the printed face, public for every card)."""
    land = LANDS.get(card)
    if land is None:
        return card
    value = f" {land.value}" if land.value is not None else ""
    return f"{card} ({land.type.capitalize()}{value})"


def _character(name: str) -> str:
    return f"the {name.capitalize()}"


def describe_move(command: Command, seat: int, view: Model, names: Names) -> str:
    """The ruleset's ``describe_move``: a Vaalbara move as the chooser reads it.

    >>> describe_move(GiveBardPoints(target=1), 0, None, {1: "sam"})
    'give 2 VP to sam (the Bard)'
    >>> describe_move(ChooseCharacter(character="oracle"), 0, None, {})
    'place the Oracle face down'
    """
    match command:
        case ChooseCharacter(character=character):
            return f"place {_character(character)} face down"
        case RevealFighter():
            return "reveal your Fighter and gain 1 VP"
        case DeclineFighter():
            return "do not reveal a Fighter"
        case GiveBardPoints(target=target):
            return f"give 2 VP to {you(names, target, seat)} (the Bard)"
        case TrackLand(card=card):
            return (
                f"swap {_land(card)} with the top card of the Land deck (the Tracker)"
            )
        case TakeBackCharacter(character=character):
            return (
                f"take {_character(character)} back from your discard pile"
                " (the Midwife)"
            )
        case SwapLands(first=first, second=second):
            return (
                f"swap {_land(first)} of the first Land row with {_land(second)}"
                " of the second (the Rider)"
            )
        case SwapWithDeckBottom(card=card):
            return (
                f"swap {_land(card)} from your Realm with the bottom card of the"
                " Land deck and gain its reward (the Pioneer)"
            )
        case TakeLand(card=card):
            return f"take {_land(card)} into your Realm"
    raise TypeError(f"vaalbara has no move {type(command).__name__}")
