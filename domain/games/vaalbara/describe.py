"""Vaalbara's events in words, for a person reading the log.

Hidden facts read as what the table sees: a face-down character is "a
character", a VP gain the viewer may not see is "scores" without a number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.sentences import Names, cards_or_count, counted, listing, seat_name

from . import events as ev
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer


def _points(points: int | None) -> str:
    return "points" if points is None else counted(points, "point")


def describe(event: Event, viewer: Viewer, names: Names) -> str:
    """One sentence for ``event`` as ``viewer`` may see it."""
    event = redact(event, viewer)

    def who(seat: int | None) -> str:
        return seat_name(names, seat)

    match event:
        case ev.LandDeckShuffled(cards=cards):
            shown = f": {listing(cards)}" if cards else ""
            return f"The Land deck is shuffled{shown}."
        case ev.ClanDeckShuffled(seat=seat, cards=cards):
            shown = f": {listing(cards)}" if cards else ""
            return f"{who(seat)}'s clan deck is shuffled{shown}."
        case ev.LandsDealt(row=row, cards=cards):
            return f"{listing(cards)} are dealt face up to row {row}."
        case ev.CharactersDrawn(seat=seat, count=count, cards=cards):
            return f"{who(seat)} draws {cards_or_count(cards, count, 'character')}."
        case ev.RoundStarted(round=round_):
            return f"Round {round_} begins."
        case ev.CharacterChosen(seat=seat, character=character):
            chosen = character or "a character"
            return f"{who(seat)} places {chosen} face down."
        case ev.CharactersRevealed(characters=characters):
            shown = ", ".join(f"{who(s)} {c}" for s, c in enumerate(characters))
            return f"The characters are revealed: {shown}."
        case ev.TurnStarted(seat=seat):
            return f"{who(seat)}'s turn begins."
        case ev.FighterCalled(seats=seats):
            answer = listing([who(s) for s in seats], "nobody")
            return f"A Fighter is played; {answer} may answer."
        case ev.FighterRevealed(seat=seat):
            return f"{who(seat)} reveals a Fighter."
        case ev.FighterDeclined(seat=seat):
            return f"{who(seat)} does not reveal a Fighter."
        case ev.PointsScored(seat=seat, reason=reason, points=points):
            return f"{who(seat)} scores {_points(points)} ({reason})."
        case ev.PointsStolen(thief=thief, victim=victim, points=points):
            return f"{who(thief)} steals {_points(points)} from {who(victim)}."
        case ev.LandTracked(seat=seat, card=card, new_card=new_card):
            return f"{who(seat)} puts {card} on the deck; {new_card} takes its place."
        case ev.CharacterTakenBack(seat=seat, character=character):
            return f"{who(seat)} takes {character} back to hand."
        case ev.LandsSwapped(seat=seat, first=first, second=second):
            return f"{who(seat)} swaps {first} and {second}."
        case ev.RealmLandSwapped(seat=seat, card=card, new_card=new_card):
            return f"{who(seat)} sends {card} under the deck and gains {new_card}."
        case ev.CharacterDiscarded(seat=seat, character=character):
            return f"{who(seat)}'s {character} goes to the discard."
        case ev.LandTaken(seat=seat, card=card):
            return f"{who(seat)} takes {card} into the Realm."
        case ev.RoundEnded(round=round_):
            return f"Round {round_} ends."
        case ev.GameEnded(scores=scores):
            tally = ", ".join(f"{who(s)} {p}" for s, p in enumerate(scores))
            return f"The game ends after round 9: {tally} VP."
    raise TypeError(f"no words for {type(event).__name__}")
