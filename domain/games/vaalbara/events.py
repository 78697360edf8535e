"""Events: decided facts, past tense, one fact each.

Hidden fields are optional or tuples so that :func:`~.views.redact` can blank
them for viewers who may not see them while keeping the event's class.
"""

from __future__ import annotations

from domain.contract.core import Event


class LandDeckShuffled(Event):
    """Setup E: the kept Land cards in deck order, top first (admin only)."""

    cards: tuple[str, ...] = ()


class ClanDeckShuffled(Event):
    """Setup D: a clan deck's order, top first (admin only; even its owner
    does not know the order of a face-down deck)."""

    seat: int
    cards: tuple[str, ...] = ()


class LandsDealt(Event):
    """Cards drawn face up from the top of the Land deck into row 1 or 2."""

    row: int
    cards: tuple[str, ...]


class CharactersDrawn(Event):
    """Cards drawn from a clan deck into its hand (cards seen by the owner)."""

    seat: int
    count: int
    cards: tuple[str, ...] = ()


class RoundStarted(Event):
    """A new round begins with its Assignment phase."""

    round: int


class CharacterChosen(Event):
    """A seat placed a character face down; the commitment binds the choice."""

    seat: int
    commitment: str
    character: str | None = None
    nonce: str | None = None


class CharactersRevealed(Event):
    """All chosen characters turned face up (by seat), with the nonces that
    let anyone check each commitment."""

    characters: tuple[str, ...]
    nonces: tuple[str, ...]


class TurnStarted(Event):
    """The next seat in initiative order starts its turn (character action)."""

    seat: int


class FighterCalled(Event):
    """A Fighter was played: these seats may answer by revealing a Fighter."""

    seats: tuple[int, ...]


class FighterRevealed(Event):
    """A seat showed the Fighter in its hand."""

    seat: int


class FighterDeclined(Event):
    """A seat answered the Fighter call without revealing."""

    seat: int


class PointsScored(Event):
    """A seat gained VP (points hidden from viewers who may not see the seat)."""

    seat: int
    reason: str
    points: int | None = None


class PointsStolen(Event):
    """Falconer: VP moved from ``victim`` to ``thief`` (points seen by both)."""

    thief: int
    victim: int
    points: int | None = None


class LandTracked(Event):
    """Tracker: ``card`` went face down on top of the deck; the former top
    card ``new_card`` took its place in the row face up."""

    seat: int
    card: str
    new_card: str


class CharacterTakenBack(Event):
    """Midwife: a discarded character returned to its owner's hand."""

    seat: int
    character: str


class LandsSwapped(Event):
    """Rider: a first-row and a second-row card changed places."""

    seat: int
    first: str
    second: str


class RealmLandSwapped(Event):
    """Pioneer: ``card`` left the Realm for the deck bottom, ``new_card``
    (the former bottom card) joined the Realm."""

    seat: int
    card: str
    new_card: str


class CharacterDiscarded(Event):
    """The character action is over; the card lies face up in the discard."""

    seat: int
    character: str


class LandTaken(Event):
    """Land action: a first-row card joined the seat's Realm."""

    seat: int
    card: str


class RoundEnded(Event):
    """End of round: the second row slid down to become the first row."""

    round: int


class GameEnded(Event):
    """VP revealed after round 9; ``omens`` is the final tie-break ranking."""

    scores: tuple[int, ...]
    omens: tuple[str, ...]


EVENT_TYPES: tuple[type[Event], ...] = (
    LandDeckShuffled,
    ClanDeckShuffled,
    LandsDealt,
    CharactersDrawn,
    RoundStarted,
    CharacterChosen,
    CharactersRevealed,
    TurnStarted,
    FighterCalled,
    FighterRevealed,
    FighterDeclined,
    PointsScored,
    PointsStolen,
    LandTracked,
    CharacterTakenBack,
    LandsSwapped,
    RealmLandSwapped,
    CharacterDiscarded,
    LandTaken,
    RoundEnded,
    GameEnded,
)
