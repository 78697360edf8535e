"""Thalara events: decided facts, past tense, one fact each.

Hidden fields (see :mod:`.view` ``redact``): the stack and supply orders
(admins only) and the card ids of selections, draws and returns (owner only;
the counts stay public).
"""

from __future__ import annotations

from domain.contract.core import Event


class ArtifactsShuffled(Event):
    order: tuple[str, ...]
    """The Artifact stack, top first (admins only)."""
    size: int


class FirstPlayerChosen(Event):
    seat: int


class ArtifactsRefilled(Event):
    """Artifacts revealed from the top of the stack as new conflicts."""

    artifacts: tuple[str, ...]


class RoundStarted(Event):
    round: int
    starter: int


class HandSelected(Event):
    seat: int
    cards: tuple[str, ...]
    """Owner only."""
    count: int
    commitment: str
    """``domain.contract.chance.commit(nonce, canonical payload)``, public."""


class SupplyShuffled(Event):
    seat: int
    order: tuple[str, ...]
    """Admins only: nobody at the table knows the order of a shuffled supply."""
    size: int


class CardsDrawn(Event):
    """Casual Chaos: the top ``count`` cards of the seat's supply go to its hand."""

    seat: int
    cards: tuple[str, ...]
    """Owner only."""
    count: int


class CardPlayed(Event):
    seat: int
    card: str
    conflict: str


class SpellActivated(Event):
    seat: int
    spell: str
    conflict: str
    target: str | None = None


class CardDestroyed(Event):
    card: str
    owner: int
    conflict: str


class CardReturned(Event):
    """A played card went back to its owner's hand (or supply, see package doc)."""

    card: str
    owner: int
    conflict: str
    to_supply: bool


class Passed(Event):
    seat: int


class ConflictResolved(Event):
    """Totals per seat; the winner takes the Artifact, used cards leave the conflict."""

    conflict: str
    totals: tuple[int, ...]
    winner: int | None = None


class RoundEnded(Event):
    round: int


class RemnantsReturned(Event):
    seat: int
    cards: tuple[str, ...]
    """Owner only."""
    count: int


class GameEnded(Event):
    reason: str
    scores: tuple[int, ...]


EVENT_TYPES = (
    ArtifactsShuffled,
    FirstPlayerChosen,
    ArtifactsRefilled,
    RoundStarted,
    HandSelected,
    SupplyShuffled,
    CardsDrawn,
    CardPlayed,
    SpellActivated,
    CardDestroyed,
    CardReturned,
    Passed,
    ConflictResolved,
    RoundEnded,
    RemnantsReturned,
    GameEnded,
)
