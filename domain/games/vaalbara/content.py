"""The Vaalbara content pack: Land cards as data, characters as a fixed table.

The rulebook prints the mechanics but not the 51 Land cards, so the cards live
in a JSON pack (``content/sample.json`` is SAMPLE content written for this
project).  Dropping in the real list means replacing that file, not code.
The twelve characters are fully printed in the rulebook, so their names and
initiative values are a constant table here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator

from domain.contract.setup_options import PackOptions, SetupChoice

CONTENT_DIR = Path(__file__).parent / "content"

LAND_TYPES: tuple[str, ...] = (
    "meadow",
    "forest",
    "mountain",
    "field",
    "village",
    "river",
)
"""The six Land types, in rulebook order."""

CHARACTERS: tuple[str, ...] = (
    "fighter",
    "bard",
    "hunter",
    "oracle",
    "carpenter",
    "falconer",
    "tracker",
    "midwife",
    "rider",
    "crafter",
    "pioneer",
    "farmer",
)
"""The 12-card clan deck; a character's initiative is its 1-based position."""

INITIATIVE: dict[str, int] = {name: i + 1 for i, name in enumerate(CHARACTERS)}

ROUNDS = 9
HAND_SIZE = 5
STARTING_VP = 2


class Land(BaseModel):
    """One Land card: its face (type, Forest value), setup mark and Omens back."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    type: str
    mark: int
    """Smallest player count the card is used with (the printed 2+ .. 5+)."""
    value: int | None = None
    """Forest reward (3-6); ``None`` for every other type."""
    omens: tuple[str, ...]
    """The five clans as ranked on the card's back, best first."""

    @model_validator(mode="after")
    def _check(self) -> Land:
        if self.type not in LAND_TYPES:
            raise ValueError(f"{self.id}: unknown land type {self.type!r}")
        if self.mark not in (2, 3, 4, 5):
            raise ValueError(f"{self.id}: mark must be 2..5")
        if (self.type == "forest") != (self.value is not None):
            raise ValueError(f"{self.id}: exactly the Forests carry a value")
        if self.value is not None and not 3 <= self.value <= 6:
            raise ValueError(f"{self.id}: Forest value must be 3..6")
        return self


class LandPack(BaseModel):
    """A whole content pack, validated so the rules can trust it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    clans: tuple[str, ...]
    lands: tuple[Land, ...]

    @model_validator(mode="after")
    def _check(self) -> LandPack:
        if len(self.clans) != 5 or len(set(self.clans)) != 5:
            raise ValueError("a pack names exactly five clans")
        ids = [land.id for land in self.lands]
        if len(set(ids)) != len(ids):
            raise ValueError("land ids must be unique")
        for land in self.lands:
            if sorted(land.omens) != sorted(self.clans):
                raise ValueError(f"{land.id}: Omens must rank the five clans")
        for players in range(2, 6):
            # 2 rows dealt at setup + 8 new second rows + 1 card left to show Omens.
            if len(self.for_players(players)) < 10 * players + 1:
                raise ValueError(f"not enough lands for {players} players")
        return self

    def for_players(self, players: int) -> tuple[str, ...]:
        """Setup step A: the ids of the cards whose mark fits ``players``."""
        return tuple(land.id for land in self.lands if land.mark <= players)


@cache
def load_pack(name: str = "sample") -> LandPack:
    """The named content pack, parsed once."""
    data = json.loads((CONTENT_DIR / f"{name}.json").read_text())
    return LandPack.model_validate(data)


PACK = load_pack()
LANDS: dict[str, Land] = {land.id: land for land in PACK.lands}
CLANS: tuple[str, ...] = PACK.clans


def content_packs() -> tuple[PackOptions, ...]:
    """The pack in play and its five clans (distinct, one per seat)."""
    return (
        PackOptions(
            name="sample",
            label=PACK.label,
            min_players=2,
            max_players=5,
            choices=(SetupChoice(field="clans", values=CLANS, per_seat=True),),
        ),
    )
