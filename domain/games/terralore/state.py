"""Terralore state: everything, for the decider (the per-viewer models are in :mod:`.view`).

Every one of a player's 20 cards is in exactly one zone: ``deck`` (top
first), ``hand``, ``staged`` (revealed, waiting for its lane during the
Reveal), ``defending``/``attacking`` (creatures, oldest first), ``graveyard``
or ``exile``.  A committed ``plan`` is not a zone: its cards stay in hand
until the Reveal, so nothing moves while the plan is secret.
"""

from __future__ import annotations

from domain.contract.core import Model, State

from .commands import Lane, Play
from .events import LaneRef

START_HP = 10


class Plan(Model):
    """A committed placement (the fields of :class:`~.commands.PlaceCards`)."""

    plays: tuple[Play, ...] = ()
    discards: tuple[str, ...] = ()
    destroys: tuple[str, ...] = ()


class PlayerState(Model):
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    staged: tuple[str, ...] = ()
    defending: tuple[str, ...] = ()
    attacking: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    exile: tuple[str, ...] = ()
    hp: int = START_HP
    plan: Plan | None = None
    """Set from commit until the Reveal; secret from the opponent."""
    nonce: str = ""
    """The commitment nonce (hex) of ``plan``, published at the Reveal."""
    boost_defending: int = 0
    boost_attacking: int = 0
    healed: bool = False
    """Whether any heal ever applied (HP above 10 is only possible then)."""

    def lane(self, lane: Lane) -> tuple[str, ...]:
        return self.defending if lane is Lane.DEFENDING else self.attacking

    def boost(self, lane: Lane) -> int:
        return self.boost_defending if lane is Lane.DEFENDING else self.boost_attacking


class TerraloreState(State):
    decks: tuple[tuple[str, ...], ...]
    """The chosen deck lists (validated), seat order."""
    players: tuple[PlayerState, ...] = ()
    turn: int = 0
    phase: str = "setup"
    """``setup`` -> ``play`` (each turn, after the draws) -> ``over``."""
    reveal_order: tuple[LaneRef, ...] = ()
    ranks: tuple[int, ...] = ()
    reason: str = ""
