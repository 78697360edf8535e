"""The content pack: the board, adventure and Character models over
``content/sample.json``, the goods and action vocabularies, and the loader.

Why data, not code: the rulebook prints mechanics but no maps, cards or
adventures, so every card list lives in JSON and the real lists can be dropped
in later.  Grids (Terrain, Enemy, Wound area) are rows of one-letter icons:

``.`` empty, ``#`` not part of the grid, ``M`` material, ``O`` ore, ``G``
gossip, ``A`` magic, ``F`` fate, ``W`` power, ``*`` Area-specific, ``H`` heal,
``X`` experience, ``D`` Discovery card, ``r``/``y`` red/yellow penalty, ``R``/``Y`` Area-specific plus a
red/yellow penalty, ``h``
an Enemy heart.

The card models (with the effect and modifier shorthand) are in
:mod:`.cards`; :class:`Content` holds them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from domain.contract.content_packs import pack_file
from domain.contract.core import Model
from domain.contract.setup_options import PackOptions
from domain.games.kit import character_packs

from .cards import (
    ActionCard,
    Discovery,
    Effect,
    Entry,
    EventCard,
    Item,
    Skill,
    SpecialCard,
)

GOODS = ("material", "ore", "gossip", "magic", "power", "fate")
ICON_GOOD = {
    "M": "material",
    "O": "ore",
    "G": "gossip",
    "A": "magic",
    "F": "fate",
    "W": "power",
}
ACTIONS = ("move", "journey", "collect", "assign", "sacrifice", "combat", "craft")
TIERS = ("minor", "moderate", "major", "massive")
ENEMY_KINDS = (*TIERS, "mystical")
CONTENT_DIR = Path(__file__).with_name("content")
DIE_ORDER = ("yellow", "orange", "red", "black")


def add_goods(goods: tuple[int, ...], good: str, delta: int) -> tuple[int, ...]:
    """``goods`` (one count per :data:`GOODS` entry, in that order) with
    ``good``'s count changed by ``delta``."""
    i = GOODS.index(good)
    return goods[:i] + (goods[i] + delta,) + goods[i + 1 :]


class Area(Model):
    id: str
    number: int
    sources: tuple[str, ...] = ()


class Border(Model):
    a: str
    b: str
    kind: str
    count: int = 1


class Location(Model):
    id: str
    areas: tuple[str, ...]
    action: str = "none"
    cost: tuple[str, ...] = ()
    wound: str = ""
    effects: tuple[Effect, ...] = ()
    enemies: tuple[str, ...] = ()
    marked: bool = False
    merged: bool = False
    runes: tuple[str, ...] = ()


class Grid(Model):
    id: str
    rows: tuple[str, ...]
    red: tuple[Effect, ...] = ()
    yellow: tuple[Effect, ...] = ()


class TerrainCard(Grid):
    marked: int = 0
    bonus: tuple[Effect, ...] = ()


class EnemyCard(Grid):
    tier: str


class Die(Model):
    colour: str
    faces: tuple[str, ...]
    """``"I2"`` or ``"I1:V3"`` (white shape : critical shape)."""


class Character(Model):
    id: str
    wound_rows: tuple[str, ...]
    journey: tuple[tuple[str, ...], ...]
    combat: tuple[tuple[str, ...], ...]
    journey_bonus: tuple[Effect, ...]
    combat_bonus: tuple[Effect, ...]
    skill: Skill
    item: str
    goods: tuple[str, ...]


class SpecialRound(Model):
    round: int
    effects: tuple[Effect, ...]


class Adventure(Model):
    name: str
    rounds: int
    start_area: str
    event_decks: tuple[str, str]
    threat_switch: int
    """Draw from the second deck when the team holds at least this many Threats."""
    icons: tuple[tuple[Effect, ...], ...]
    special_rounds: tuple[SpecialRound, ...] = ()
    red_border: tuple[Effect, ...] = ()
    blue_border_cost: str = "magic"
    mystical_tier: str = "moderate"
    mystical_effects: tuple[Effect, ...] = ()
    plot_cost: str = "gossip"
    win: str = ""
    lose: str = ""


_M = TypeVar("_M", bound=Model)

# Values are the pydantic card models named by each lookup's type.
_INDEXES: dict[tuple[int, str], dict[str, Any]] = {}


class ById(Generic[_M]):
    """``content.card("a12")``: the item of ``content.<attr>`` whose ``id`` is given.

    Each pack's index is built once, on the first lookup (a pack is loaded
    once, :func:`load` caches it).  :raises KeyError: (from the lookup) for
    an id the pack does not have.
    """

    def __init__(self, attr: str) -> None:
        self.attr = attr

    def __get__(self, content: Content | None, owner: type) -> Callable[[str], _M]:
        assert content is not None, "looked up on a pack, not on the class"
        key = (id(content), self.attr)
        if key not in _INDEXES:
            _INDEXES[key] = {x.id: x for x in getattr(content, self.attr)}
        return _INDEXES[key].__getitem__


class Content(Model):
    label: str
    adventure: Adventure
    areas: tuple[Area, ...]
    borders: tuple[Border, ...]
    locations: tuple[Location, ...]
    action_row: tuple[str, ...]
    action_cards: tuple[ActionCard, ...]
    special_cards: tuple[SpecialCard, ...]
    terrain: tuple[TerrainCard, ...]
    enemies: tuple[EnemyCard, ...]
    dice: tuple[Die, ...]
    characters: tuple[Character, ...]
    items: tuple[Item, ...]
    discoveries: tuple[Discovery, ...]
    entries: tuple[Entry, ...]
    events: tuple[EventCard, ...]

    card: ClassVar[ById[ActionCard]] = ById("action_cards")
    special: ClassVar[ById[SpecialCard]] = ById("special_cards")
    location: ClassVar[ById[Location]] = ById("locations")
    area: ClassVar[ById[Area]] = ById("areas")
    terrain_card: ClassVar[ById[TerrainCard]] = ById("terrain")
    enemy: ClassVar[ById[EnemyCard]] = ById("enemies")
    character: ClassVar[ById[Character]] = ById("characters")
    item: ClassVar[ById[Item]] = ById("items")
    discovery: ClassVar[ById[Discovery]] = ById("discoveries")
    entry: ClassVar[ById[Entry]] = ById("entries")
    event: ClassVar[ById[EventCard]] = ById("events")

    def die(self, colour: str) -> Die:
        return {d.colour: d for d in self.dice}[colour]


@cache
def load(name: str = "sample") -> Content:
    """Load and validate the shipped pack ``name`` (see :mod:`domain.contract.content_packs`).

    :raises InvalidCommandError: if no such pack is shipped.
    """
    path = pack_file(CONTENT_DIR, name)
    return Content.model_validate(json.loads(path.read_text()))


def content_packs() -> tuple[PackOptions, ...]:
    """Every shipped pack with its characters (distinct, one per seat; solo
    is one player with two seats)."""
    return character_packs(
        Path(__file__).with_name("content"), load, min_players=1, max_players=4
    )
