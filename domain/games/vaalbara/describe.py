"""Vaalbara's events in words, for a person reading the log.

Hidden facts read as what the table sees: a face-down character is "a
character", a VP gain the viewer may not see is "scores" without a number.
"""

from __future__ import annotations

from domain.words.phrasebook import Phrasebook
from domain.words.sentences import counted, listing

from . import events as ev
from .view import redact


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
