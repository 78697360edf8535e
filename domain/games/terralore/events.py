"""Terralore events: one fact each; hidden fields carry a ``hidden`` flag.

Redaction (see :mod:`.view`) blanks ``order`` of :class:`DeckShuffled` for
everyone but admins, ``cards`` of :class:`CardsDrawn` and the plan of
:class:`PlacementCommitted` for everyone but the owner.
"""

from __future__ import annotations

from domain.contract.core import Event, Model

from .commands import Lane, Play


class LaneRef(Model):
    seat: int
    lane: Lane


class DeckShuffled(Event):
    """A seat's deck was shuffled; ``order`` is top first (never shown to players)."""

    seat: int
    order: tuple[str, ...]
    hidden: bool = False


class TurnStarted(Event):
    """A new turn began (its Draw phase follows; then the Play phase)."""

    turn: int


class CardsDrawn(Event):
    """``seat`` took the top cards of its deck: ``cards`` to hand, ``burned`` to the
    Graveyard because the hand was full (surplus draws are public)."""

    seat: int
    count: int
    cards: tuple[str, ...]
    burned: tuple[str, ...] = ()
    hidden: bool = False


class PlacementCommitted(Event):
    """``seat`` committed its face-down plan; only ``commitment`` is public."""

    seat: int
    commitment: str
    plays: tuple[Play, ...] = ()
    discards: tuple[str, ...] = ()
    destroys: tuple[str, ...] = ()
    nonce: str = ""
    hidden: bool = False


class PlacementRevealed(Event):
    """``seat``'s plan became public: played cards leave the hand (face up, waiting
    for their lane) and the cost ``discards`` go to the Graveyard."""

    seat: int
    plays: tuple[Play, ...]
    discards: tuple[str, ...]
    destroys: tuple[str, ...]
    nonce: str


class RevealOrderDecided(Event):
    """Lanes resolve in ``order``; ``rolls`` (seat 0, seat 1, repeated on ties)
    are the die rolls when the order was rolled for."""

    first: int
    reason: str
    order: tuple[LaneRef, ...]
    rolls: tuple[int, ...] = ()


class CreaturePlayed(Event):
    seat: int
    lane: Lane
    card: str


class SkillPlayed(Event):
    """A skill resolved in ``lane`` ("here") and went to the Graveyard."""

    seat: int
    lane: Lane
    card: str


class CreatureDestroyed(Event):
    """A creature left the field for its owner's Graveyard (``reason``: room, effect)."""

    seat: int
    lane: Lane
    card: str
    reason: str


class CreatureExiled(Event):
    seat: int
    lane: Lane
    card: str


class LaneBoosted(Event):
    """``amount`` bonus points in ``seat``'s ``lane`` for this turn's Counting."""

    seat: int
    lane: Lane
    amount: int


class CastleDamaged(Event):
    """``seat``'s castle lost ``amount`` HP (floored at 0), now ``hp``."""

    seat: int
    amount: int
    hp: int
    source: str


class CastleHealed(Event):
    seat: int
    amount: int
    hp: int


class CardsDiscarded(Event):
    """Cards went from ``seat``'s hand to its Graveyard through an effect."""

    seat: int
    cards: tuple[str, ...]


class LanesCounted(Event):
    """Counting totals per seat (bonuses included): the damage to seat ``s`` is
    ``max(0, attack[opponent] - defense[s])``."""

    attack: tuple[int, ...]
    defense: tuple[int, ...]


class DeckRanOut(Event):
    """``seat`` had to draw from an empty deck."""

    seat: int


class GameEnded(Event):
    ranks: tuple[int, ...]
    reason: str


EVENT_TYPES = (
    DeckShuffled,
    TurnStarted,
    CardsDrawn,
    PlacementCommitted,
    PlacementRevealed,
    RevealOrderDecided,
    CreaturePlayed,
    SkillPlayed,
    CreatureDestroyed,
    CreatureExiled,
    LaneBoosted,
    CastleDamaged,
    CastleHealed,
    CardsDiscarded,
    LanesCounted,
    DeckRanOut,
    GameEnded,
)
