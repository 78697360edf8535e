"""The Terralore content pack: cards and named decks, kept as data.

The rulebook prints mechanics but no card list, so cards live in a JSON file
(``content/sample.json``, labelled SAMPLE) and the real list can be dropped in
without touching code.  Card effects are a small closed vocabulary (see
:class:`EffectKind`) interpreted by :mod:`.rules.reveal`.
"""

from __future__ import annotations

import enum
import json
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from domain.contract.core import InvalidCommandError
from domain.contract.setup_options import PackOptions, SetupChoice

CONTENT_FILE = Path(__file__).with_name("content") / "sample.json"
DECK_SIZE = 20


class EffectKind(str, enum.Enum):
    """What a skill does when its lane is revealed."""

    DESTROY = "destroy"
    """Destroy the ``amount`` strongest enemy creatures in the lane facing "here"."""
    EXILE = "exile"
    """Like destroy, but the creatures are exiled (removed from the game)."""
    BONUS = "bonus"
    """``amount`` extra points "here" (the lane it was played in), this turn only."""
    DAMAGE = "damage"
    """``amount`` damage to the opponent's castle."""
    HEAL = "heal"
    """``amount`` HP back to the owner's castle (may go above 10)."""
    DRAW = "draw"
    """The owner draws ``amount`` cards (hand limit applies; stops at an empty deck)."""
    DISCARD = "discard"
    """The opponent discards ``amount`` random cards from hand."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Effect(_Frozen):
    kind: EffectKind
    amount: int


class Card(_Frozen):
    id: str
    name: str
    kind: Literal["creature", "skill"]
    affinity: Literal["fire", "water", "earth", "air"]
    rarity: Literal["common", "uncommon", "rare", "epic", "legendary"]
    cost: int
    """Cards to discard from hand to play it."""
    points: int
    """Lane points (always 0 for skills: they count only through effects)."""
    effects: tuple[Effect, ...] = ()

    @property
    def is_creature(self) -> bool:
        return self.kind == "creature"


class NamedDeck(_Frozen):
    name: str
    cards: tuple[str, ...]


class ContentPack(_Frozen):
    label: str
    cards: tuple[Card, ...]
    decks: tuple[NamedDeck, ...]

    @model_validator(mode="after")
    def _check(self) -> ContentPack:
        ids = [c.id for c in self.cards]
        if len(ids) != len(set(ids)):
            raise ValueError("duplicate card ids in content pack")
        for deck in self.decks:
            parse_deck(deck.cards, set(ids))
        return self


@lru_cache(maxsize=1)
def load_pack() -> ContentPack:
    """The content pack, parsed once."""
    return ContentPack.model_validate(json.loads(CONTENT_FILE.read_text()))


@lru_cache(maxsize=1)
def cards() -> dict[str, Card]:
    """Card id -> card."""
    return {c.id: c for c in load_pack().cards}


def card(card_id: str) -> Card:
    """:raises InvalidCommandError: if the card does not exist."""
    try:
        return cards()[card_id]
    except KeyError:
        raise InvalidCommandError(f"unknown card {card_id!r}") from None


def named_deck(name: str) -> tuple[str, ...]:
    """:raises InvalidCommandError: if no sample deck has that name."""
    for deck in load_pack().decks:
        if deck.name == name:
            return deck.cards
    known = [d.name for d in load_pack().decks]
    raise InvalidCommandError(f"unknown deck {name!r}; known: {known}")


def default_deck_names() -> tuple[str, ...]:
    return tuple(d.name for d in load_pack().decks[:2])


def parse_deck(deck: tuple[str, ...], known: set[str] | None = None) -> tuple[str, ...]:
    """Validate a deck list: exactly 20 existing cards, one copy of each.

    >>> len(parse_deck(named_deck("emberfall")))
    20

    :raises InvalidCommandError: naming the first problem found.
    """
    known = set(cards()) if known is None else known
    if len(deck) != DECK_SIZE:
        raise InvalidCommandError(
            f"a deck has exactly {DECK_SIZE} cards, got {len(deck)}"
        )
    unknown = [c for c in deck if c not in known]
    if unknown:
        raise InvalidCommandError(f"unknown cards in deck: {unknown}")
    if len(set(deck)) != len(deck):
        raise InvalidCommandError("a deck holds a single copy of each card")
    return tuple(deck)


def content_packs() -> tuple[PackOptions, ...]:
    """The pack in play: its named decks and the card ids a custom deck uses."""
    pack = load_pack()
    return (
        PackOptions(
            name="sample",
            label=pack.label,
            min_players=2,
            max_players=2,
            choices=(
                SetupChoice(
                    field="decks.name", values=tuple(d.name for d in pack.decks)
                ),
                SetupChoice(
                    field="decks.cards", values=tuple(c.id for c in pack.cards)
                ),
            ),
        ),
    )
