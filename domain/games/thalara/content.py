"""Thalara content packs: cards and spells as data, validated by pydantic.

The rulebook prints the mechanics but not the card list, so cards and spells
live in JSON files under ``content/`` (``sample.json`` is written for this
project and labelled as such).  A real card list is another JSON file of the
same shape, selected by the setup's ``content`` field; no code changes.

Physical cards become *instances* with ids unique across the whole table, so
every card is in exactly one place and a command naming a card is unambiguous:

- Remnant ``r07`` of seat 1 is ``r07@1`` (each seat has its own copy of the
  same 20 Remnants);
- Artifacts keep their id with one set (2 players); with two combined sets
  (3-4 players) the second set's copies are ``a05#2``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from domain.contract.content_packs import pack_file
from domain.contract.setup_options import PackOptions
from domain.games.kit import character_packs

if TYPE_CHECKING:
    from .state import ThalaraState

CONTENT_DIR = Path(__file__).parent / "content"
HAND_SIZE = 7
"""Hand cards at the start of every round, Artifacts included."""
WIN_ARTIFACTS = 7
"""Artifacts won that end the game (checked at the start of a round)."""


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RemnantCard(_Data):
    id: str
    strength: int
    colour: str


class ArtifactCard(_Data):
    id: str
    strength: int
    colour: str
    victory_points: int


class Effect(_Data):
    """What a spell does; the vocabulary is implemented in :mod:`.rules.spells`.

    - ``bonus``: +``amount`` strength to the caster in the conflict (round).
    - ``weaken``: -``amount`` strength to each opponent in the conflict (round).
    - ``destroy``: a target card in the conflict stops counting (immediate).
    - ``return``: a target card goes back to its owner's hand (immediate).

    ``target`` says whose card may be chosen; ``max_strength`` limits it.
    """

    kind: Literal["bonus", "weaken", "destroy", "return"]
    amount: int = 0
    target: Literal["opponent", "own", "any"] | None = None
    max_strength: int | None = None

    @model_validator(mode="after")
    def _shape(self) -> Effect:
        targeted = self.kind in ("destroy", "return")
        if targeted != (self.target is not None):
            raise ValueError(
                f"{self.kind} effects {'need' if targeted else 'take no'} target"
            )
        if not targeted and self.amount <= 0:
            raise ValueError(f"{self.kind} effects need a positive amount")
        return self

    @property
    def is_targeted(self) -> bool:
        return self.target is not None


class Spell(_Data):
    id: str
    name: str
    requirement: tuple[str, ...]
    """Colours (a multiset) the caster's own live cards in the conflict must show."""
    effect: Effect

    @property
    def needs(self) -> Counter[str]:
        return Counter(self.requirement)


class Character(_Data):
    id: str
    name: str
    spells: tuple[Spell, ...]


class ContentPack(_Data):
    label: str
    name: str
    note: str = ""
    colours: tuple[str, ...]
    remnants: tuple[RemnantCard, ...]
    artifacts: tuple[ArtifactCard, ...]
    characters: tuple[Character, ...]

    @model_validator(mode="after")
    def _consistent(self) -> ContentPack:
        if len(self.remnants) != 20 or len(self.artifacts) != 15:
            raise ValueError("a Thalara set has 20 Remnants and 15 Artifacts")
        cards: tuple[RemnantCard | ArtifactCard, ...] = (
            *self.remnants,
            *self.artifacts,
        )
        ids = [c.id for c in cards]
        spell_ids = [s.id for ch in self.characters for s in ch.spells]
        if len(set(ids)) != len(ids) or len(set(spell_ids)) != len(spell_ids):
            raise ValueError("card and spell ids must be unique")
        if any(len(ch.spells) != 4 for ch in self.characters):
            raise ValueError("each character has 4 spells")
        colours = set(self.colours)
        used = {c.colour for c in cards}
        used |= {
            col for ch in self.characters for s in ch.spells for col in s.requirement
        }
        if not used <= colours:
            raise ValueError(f"unknown colours {sorted(used - colours)}")
        return self


class CardInfo(_Data):
    """One physical card on the table (an instance of a content card)."""

    id: str
    kind: Literal["remnant", "artifact"]
    strength: int
    colour: str
    victory_points: int = 0
    owner: int | None = None
    """The seat whose supply a Remnant belongs to; ``None`` for Artifacts."""


@cache
def load_pack(name: str) -> ContentPack:
    """Load and validate the shipped pack ``name`` (see :mod:`domain.contract.content_packs`).

    :raises InvalidCommandError: if no such pack is shipped.
    """
    path = pack_file(CONTENT_DIR, name)
    return ContentPack.model_validate(json.loads(path.read_text()))


def remnant_id(content_id: str, seat: int) -> str:
    """The table-unique id of ``seat``'s copy of Remnant ``content_id``.

    >>> remnant_id("r07", 1)
    'r07@1'
    """
    return sys.intern(f"{content_id}@{seat}")  # one copy for every game held


def artifact_sets(players: int) -> int:
    """Two sets are combined for 3-4 players."""
    return 1 if players == 2 else 2


def conflict_count(players: int) -> int:
    """Conflicts revealed per round: 3 (2p), 4 (3p), 5 (4p)."""
    return players + 1


@cache
def catalogue(pack_name: str, players: int) -> dict[str, CardInfo]:
    """Every card instance of a table with ``players`` seats, by id."""
    pack = load_pack(pack_name)
    cards: dict[str, CardInfo] = {}
    for seat in range(players):
        for r in pack.remnants:
            cid = remnant_id(r.id, seat)
            cards[cid] = CardInfo(
                id=cid, kind="remnant", strength=r.strength, colour=r.colour, owner=seat
            )
    for n in range(artifact_sets(players)):
        for a in pack.artifacts:
            cid = a.id if n == 0 else f"{a.id}#{n + 1}"
            cards[cid] = CardInfo(
                id=cid,
                kind="artifact",
                strength=a.strength,
                colour=a.colour,
                victory_points=a.victory_points,
            )
    return cards


@cache
def characters(pack_name: str) -> dict[str, Character]:
    return {c.id: c for c in load_pack(pack_name).characters}


@cache
def spells(pack_name: str) -> dict[str, Spell]:
    return {s.id: s for c in load_pack(pack_name).characters for s in c.spells}


def card_info(state: ThalaraState, card: str) -> CardInfo:
    """The printed values of card instance ``card`` in ``state``'s pack."""
    return catalogue(state.content, state.seats)[card]


def spell_of(state: ThalaraState, spell: str) -> Spell:
    """The definition of ``spell`` in ``state``'s pack."""
    return spells(state.content)[spell]


def content_packs() -> tuple[PackOptions, ...]:
    """Every shipped pack with its characters (3-4 players: two sets, so a
    character may be chosen by two seats)."""
    return character_packs(
        CONTENT_DIR, load_pack, min_players=2, max_players=4, copies=2
    )
