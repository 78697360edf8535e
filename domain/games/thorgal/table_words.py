"""Thorgal's table in the rulebook's words: the parts of a view as a person reads them.

The view keeps the engine's shapes (a goods count per position, a chip's
``slot`` of ``-1``, the resolution stack's ``op`` names); shown as fields
they read "goods 1, 1, 0, 0, 0 and 0", "slot -1", "op after_items".  Each
part here has its sentence instead, registered with
:func:`~domain.words.sentences.worded_as`, so the board in words and any
plain sentence name a Character, her Goods, Wounds and Items, a chip below
an Action card, a Location's tokens, the open question, as the rulebook
does.  Seats are the Character's name with the player's after it.
"""

from __future__ import annotations

from domain.words.sentences import (
    Names,
    counted,
    field_worded_as,
    listing,
    seat_name,
    worded_as,
    words,
)

from . import names as N
from .move_words import where
from .state import Act, Chip, Combat, Hero, Pending, Site, Task, Tile, dec
from .view import DeckView, EntryView, ThorgalView

QUESTIONS = {
    "prepare": "use Items or the Skill card before the action",
    "upgrade_die": "which die to upgrade before the roll",
    "combat_mod": "reroll, activate a Critical, or place the Wound tiles",
    "assign": "where to Assign Goods",
    "assign_good": "which Good to assign next",
    "consent": "whether to share a Good",
    "pay_consent": "whether to share a Good",
    "pay_from": "whose supply pays",
    "group_pay": "who discards for the group",
    "sacrifice": "where to Sacrifice",
    "craft": "which Item to take from the Display",
    "craft_discard": "whether to discard an Item from the Display",
    "pick_item": "which Item to take from the Display",
    "after_item": "whether to use an Item after the action",
    "heal": "which Wound tile to discard",
    "plot": "which Side Plot to follow",
    "swap": "whether to swap an Action card",
    "discard_collect": "whose Collect tokens to discard",
    "collect": "where to place a Collect token",
    "move": "where to move",
    "target": "which Enemy to fight",
    "enemy_order": "the order of the Enemy cards",
    "upgrade": "which Enemy to upgrade",
    "degrade": "which Enemy to degrade",
    "place_enemy": "where to place an Enemy token",
    "token_blockade": "where to place a Blockade token",
    "token_cost": "where to place an Increased cost token",
    "token_cover": "where to place a Sacrifice cover token",
    "cost_good": "which cost the Increased cost token raises",
    "area_good": "which Good the Area's Sources give",
    "xp": "which Experience to gain",
    "place_wound": "where to place a Wound tile",
    "place_journey": "where to place a Journey tile",
    "place_combat": "where to place a Wound tile on the Enemy card",
}
"""Each open question (``Pending.kind``) as the rulebook would ask it."""


def _player(seat: int, names: Names, character: str) -> str:
    """``Aaricia (rita)``: the Character, and who plays her."""
    return f"{N.titled(character)} ({seat_name(names, seat)})"


@worded_as(Tile)
def tile_words(tile: Tile, names: Names) -> str:
    """``I2 at row 1, columns 2-3``."""
    return f"{tile.shape} at {where(frozenset(dec(c) for c in tile.cells))}"


@worded_as(Hero)
def hero_words(hero: Hero, names: Names) -> str:
    """A Character board and its supply, as the rulebook names its parts."""
    skill = "active" if hero.skill_active else "used"
    parts = [
        f"{_player(hero.seat, names, hero.character)} in {N.area(hero.area)}",
        f"Goods: {N.goods(hero.goods, 'none')}",
        f"Wounds: {listing([tile_words(w, names) for w in hero.wounds], 'none')}",
        f"Threats: {hero.threats}",
        f"Combat Experience {hero.combat_level}",
        f"Journey Experience {hero.journey_level}",
        f"Skill card {skill}",
        f"Items: {listing([N.item(i) for i in hero.items], 'none')}",
    ]
    return "; ".join(parts)


@worded_as(Chip)
def chip_words(chip: Chip, names: Names) -> str:
    """``active, below the 3rd Action card`` / ``beside the Action Row``."""
    state = "active" if chip.active else "inactive"
    if chip.slot < 0:
        return f"{state}, beside the Action Row"
    return f"{state}, below Action Row card {chip.slot + 1}"


@worded_as(Site)
def site_words(site: Site, names: Names) -> str:
    """A Location and the tokens on it."""
    tokens = []
    if site.enemies:
        tiers: dict[str, int] = {}
        for tier in site.enemies:
            tiers[tier] = tiers.get(tier, 0) + 1
        tokens.append(
            listing(
                [
                    N.enemy(t) if n == 1 else f"{n} {t.capitalize()} Enemies"
                    for t, n in tiers.items()
                ]
            )
        )
    if any(site.assigned):
        tokens.append(f"{N.goods(site.assigned)} assigned")
    if site.blockade:
        tokens.append("a Blockade token")
    if site.cover:
        tokens.append("a Sacrifice cover token")
    if site.cost_tokens:
        raised = N.goods(site.extra_cost, "")
        more = f" (+{raised})" if raised else ""
        tokens.append(f"{counted(site.cost_tokens, 'Increased cost token')}{more}")
    if site.entry_token:
        tokens.append("a Completed Entry token")
    return f"{N.titled(site.id)}: {'; '.join(tokens) or 'no tokens'}"


@worded_as(Pending)
def pending_words(pending: Pending, names: Names) -> str:
    """``seat 2 must choose: where to Assign Goods``."""
    question = QUESTIONS.get(pending.kind, words(pending.kind))
    return f"{seat_name(names, pending.seat)} must choose {question}"


@worded_as(Act)
def act_words(act: Act, names: Names) -> str:
    """``seat 1 resolves Collect 2``."""
    return f"{seat_name(names, act.seat)} resolves {N.action(act.action)} {act.value}"


@worded_as(Combat)
def combat_words(combat: Combat, names: Names) -> str:
    """The Combat under way: where, the Enemy cards, the dice."""
    parts = [
        f"{seat_name(names, combat.seat)} fights at {N.location(combat.location)}",
        N.enemy_cards(combat.cards),
    ]
    if combat.dice:
        parts.append(f"dice {listing(combat.dice)}")
    if combat.placed:
        parts.append(
            f"Wound tiles placed: {listing([tile_words(t, names) for t in combat.placed])}"
        )
    return "; ".join(parts)


@worded_as(Task)
def task_words(task: Task, names: Names) -> str:
    """A step still to resolve, in the engine's order."""
    whose = f" ({seat_name(names, task.seat)})" if task.seat >= 0 else ""
    return f"still to resolve: {words(task.op)}{whose}"


@worded_as(DeckView)
def deck_words(deck: DeckView, names: Names) -> str:
    """``the mountain deck: 9 cards, 1 discarded``."""
    return (
        f"the {words(deck.name)} deck: {counted(deck.size, 'card')},"
        f" {len(deck.discard)} discarded"
    )


@worded_as(EntryView)
def entry_words(entry: EntryView, names: Names) -> str:
    """``Entry E1, “The Elder”: ...``."""
    return f"Entry {entry.id}, “{entry.title}”: {entry.text}"


# ------------------------------------------------------------ the view's own fields


@field_worded_as(ThorgalView, "row")
def _row(row: tuple[str, ...], names: Names) -> str:
    c = N.pack(None)
    return f"Action Row: {listing([N.action_card(c, cid) for cid in row])}"


@field_worded_as(ThorgalView, "specials")
def _specials(specials: tuple[str, ...], names: Names) -> str:
    return f"Special Action cards: {listing(list(specials))}"


@field_worded_as(ThorgalView, "display")
def _display(display: tuple[str, ...], names: Names) -> str:
    return f"Item Display: {listing([N.item(i) for i in display])}"


@field_worded_as(ThorgalView, "terrain")
def _terrain(terrain: tuple[str, ...], names: Names) -> str:
    return f"Journey Path: Terrain cards {listing(list(terrain))}"


@field_worded_as(ThorgalView, "collect_tokens")
def _collect(cells: tuple[int, ...], names: Names) -> str:
    return f"Collect tokens at {where(frozenset(dec(c) for c in cells))}"


@field_worded_as(ThorgalView, "turn")
def _turn(turn: int, names: Names) -> str:
    return f"turn {turn + 1}"


@field_worded_as(ThorgalView, "round")
def _round(round_: int, names: Names) -> str:
    return f"round {round_}"


@field_worded_as(ThorgalView, "active_event")
def _event(event: str, names: Names) -> str:
    return f"active Event card {event}"


@field_worded_as(ThorgalView, "players", "seats", "tasks", "phase")
def _engine(value: object, names: Names) -> str:
    """The engine's bookkeeping: the heroes and the open question say it."""
    return ""


@field_worded_as(ThorgalView, "reason")
def _reason(reason: str, names: Names) -> str:
    """Only an ended adventure's reason is a sentence; before the first turn
    the field holds the setup's Characters (engine bookkeeping)."""
    return f"reason: {reason}" if " " in reason else ""
