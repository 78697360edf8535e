"""Thorgal's moves as the rulebook words them, for the player choosing one.

Every question the rules ask is ``view.pending`` (its ``kind`` says what
for) and every answer an :class:`~.commands.Option`; the same answer means
different things to different questions (a Location is where to Assign,
where to Sacrifice, or where an Enemy token goes), so a sentence is chosen
by the question first and the answer second.  Names come from
:mod:`.names`: "place the Action chip from below Action card 2 below Action
card 5 (Collect 2)", "assign 1 Ore from your supply to the Smithy", "take
the Chisel from the Display".

A sentence is built from the chooser's own view only; Thorgal hides nothing
from a seat but the decks' order, which no move names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.words.sentences import Names, counted, listing

from . import names as N
from .commands import Choose, Option, PlaceTile, TakeAction
from .rules import polyomino as P
from .state import dec
from .view import ThorgalView

if TYPE_CHECKING:
    from domain.contract.core import Command, Model

    from .content import Content
    from .state import Pending


# ------------------------------------------------------------ turns


def _take_action(view: ThorgalView, c: Content, command: TakeAction) -> str:
    card = c.card(view.row[command.slot])
    main = card.actions[command.option] if command.option < len(card.actions) else ""
    chip = view.chips[command.chip] if command.chip < len(view.chips) else None
    if chip is None or chip.slot < 0:
        source = "an Action chip from beside the Action Row"
    else:
        source = (
            "the Action chip from below Action card"
            f" {c.card(view.row[chip.slot]).number}"
        )
    return f"{N.action(main)} {card.value} (Action card {card.number}): place {source} there"


# ------------------------------------------------------------ tiles


def _spans(numbers: list[int]) -> str:
    """``[2, 3, 5]`` -> ``2-3 and 5`` (counted from 1 by the caller)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return listing([f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs])


def where(cells: frozenset[tuple[int, int]]) -> str:
    """Cells as people count them, row by row: ``row 1, columns 2-3``.

    >>> where(frozenset({(0, 1), (0, 2)}))
    'row 1, columns 2-3'
    >>> where(frozenset({(0, 1), (1, 1), (1, 2)}))
    'row 1, column 2 and row 2, columns 2-3'
    """
    rows: dict[int, list[int]] = {}
    for r, col in sorted(cells):
        rows.setdefault(r, []).append(col + 1)
    return listing(
        [
            f"row {r + 1}, column{'s' if len(cols) > 1 else ''} {_spans(cols)}"
            for r, cols in rows.items()
        ]
    )


def _covering(grid: tuple[str, ...], cells: frozenset[tuple[int, int]]) -> str:
    """What a tile covers on ``grid``, empty spaces left out: ``Ore and a Heal``."""
    shown = N.icons(
        [
            grid[r][col]
            for r, col in sorted(cells)
            if r < len(grid) and col < len(grid[r])
        ]
    )
    return f", covering {shown}" if shown else ""


def _tile(view: ThorgalView, c: Content, command: PlaceTile, seat: int) -> str:
    cells = P.cells_posed(
        command.shape, command.rotation, command.mirrored, command.row, command.col
    )
    size = P.size(command.shape)
    kind = view.pending.kind if view.pending else ""
    if kind == "place_journey":
        grid = tuple(
            "".join(c.terrain_card(t).rows[r] for t in view.terrain) for r in range(3)
        )
        cards = sorted({col // 3 + 1 for _, col in cells})
        on = listing([str(n) for n in cards])
        return (
            f"place the {command.shape} Journey tile (size {size}) on the Journey"
            f" Path at {where(cells)} (Terrain card{'s' if len(cards) > 1 else ''}"
            f" {on}){_covering(grid, cells)}"
        )
    if kind == "place_combat" and view.combat is not None:
        return (
            f"place the {command.shape} Wound tile (size {size}) on the Enemy"
            f" card at {where(cells)}{_covering(view.combat.rows, cells)}"
        )
    owner = view.pending.seat if view.pending else seat
    rows = c.character(view.heroes[owner].character).wound_rows
    return (
        f"place the {command.shape} Wound tile (size {size}) in"
        f" {N.whose(view, owner, seat)} Wound area at {where(cells)}"
        f"{_covering(rows, cells)}"
    )


# ------------------------------------------------------------ answers

Answer = Callable[[ThorgalView, "Content", "Pending", Any, int], str]
"""``answer(view, content, pending, value, chooser)``: one option in words."""

PROCEED = {
    "prepare": "resolve the action now",
    "upgrade_die": "upgrade no more dice: roll",
    "combat_mod": "place the Wound tiles on the Enemy card",
    "assign_good": "assign no more Goods",
    "craft": "take no more Items",
    "craft_discard": "discard no Item from the Display",
    "pick_item": "take no Item",
    "after_item": "use no more Items: finish the action",
    "heal": "heal no more Wounds",
    "plot": "follow no Side Plot",
    "swap": "keep the Action Row as it is",
    "discard_collect": "discard no more Collect tokens",
}
"""What "go on" means to each question that offers it."""

TOKENS = {
    "token_blockade": "a Blockade token",
    "token_cost": "an Increased cost token",
    "token_cover": "a Sacrifice cover token",
}


def _proceed(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return PROCEED.get(p.kind, "go on")


def _consent(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    asker = N.hero(view, p.n)
    use = "assign" if p.kind == "consent" else "spend"
    to = f" to {N.location(p.loc)}" if p.loc else ""
    if value.agree:
        return f"agree: let {asker} {use} 1 {N.good(p.arg)} from your supply{to}"
    return f"refuse to share your {N.good(p.arg)} with {asker}"


def _use_item(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    when = {"prepare": " before the action", "after_item": " after the action"}
    return f"use {N.item(value.item)} (discard it){when.get(p.kind, '')}"


def _use_skill(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    hero = view.heroes[p.seat]
    return f"use your Skill card ({c.character(hero.character).skill.name})"


def _refresh(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    skill = c.character(view.heroes[p.seat].character).skill
    cost = listing([f"1 {N.good(g)}" for g in skill.refresh], "nothing")
    return f"spend {cost} to flip your Skill card ({skill.name}) back to active"


def _swap(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"swap {N.action_card(c, value.card)} into the Action Row"


def _collect(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    r, col = dec(value.cell)
    terrain = view.terrain[col // 3] if col // 3 < len(view.terrain) else ""
    ch = c.terrain_card(terrain).rows[r][col % 3] if terrain else "."
    return (
        f"place a Collect token on Terrain card {col // 3 + 1} at"
        f" {where(frozenset({(r, col)}))} ({N.icon(ch)})"
    )


def _discard_collect(
    view: ThorgalView, c: Content, p: Pending, value: Any, me: int
) -> str:
    on = sum(1 for cell in view.collect_tokens if dec(cell)[1] // 3 == value.terrain)
    return (
        f"discard the {counted(on, 'Collect token')} on Terrain card"
        f" {value.terrain + 1}"
    )


LOCATION = {
    "assign": "Assign Goods at {loc}",
    "sacrifice": "Sacrifice at {loc}",
    "place_enemy": "place {enemy} token at {loc}",
}


def _location(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    loc = N.location(value.location)
    if p.kind in TOKENS:
        return f"place {TOKENS[p.kind]} at {loc}"
    if p.kind == "sacrifice":
        wound = c.location(value.location).wound
        n = view.act.value if view.act is not None else 0
        gain = f" (gain {counted(n, wound + ' Wound tile')})" if wound and n else ""
        return f"Sacrifice at {loc}{gain}"
    template = LOCATION.get(p.kind, "choose {loc}")
    return template.format(loc=loc, enemy=N.enemy(p.arg) if p.arg else "an Enemy")


def _give(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    owner = value.from_seat
    ask = "" if owner == me else f" (if {N.hero(view, owner)} agrees)"
    return (
        f"assign 1 {N.good(value.good)} from {N.whose(view, owner, me)} supply"
        f" to {N.location(p.loc)}{ask}"
    )


def _take_item(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"take {N.item(value.item)} from the Item Display"


def _discard_item(
    view: ThorgalView, c: Content, p: Pending, value: Any, me: int
) -> str:
    return f"discard {N.item(value.item)} from the Item Display"


def _side_plot(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    cost = N.good(c.adventure.plot_cost)
    try:
        title = c.entry(p.arg).plots[value.plot].title
    except (KeyError, IndexError):
        title = f"Side Plot {value.plot + 1}"
    return f"spend 1 {cost} to follow the Side Plot “{title}”"


def _enemy_token(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    site = next((s for s in view.sites if s.id == value.location), None)
    enemies = site.enemies if site else ()
    tier = enemies[value.index] if value.index < len(enemies) else ""
    what = N.enemy(tier) if tier else "the Enemy"
    at = f"{what} at {N.location(value.location)}"
    if len(enemies) > 1:  # tokens alike are still different answers
        at += f" (Enemy token {value.index + 1} of {len(enemies)})"
    if p.kind == "upgrade":
        return f"upgrade {at}"
    if p.kind == "degrade":
        return f"degrade {at}"
    return f"fight {at}"


def _pick_good(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    if p.kind == "cost_good":
        return (
            f"raise the {N.good(value.good)} cost at {N.location(p.arg)}"
            " by 1 (Increased cost token)"
        )
    return f"gain {p.n or 1} {N.good(value.good)} from your Area's Sources"


def _enemy_card(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    place = "first" if not p.chosen else "next"
    return f"lay out Enemy card {value.card} {place}, left to right"


def _die(view: ThorgalView, index: int) -> str:
    dice = view.combat.dice if view.combat else ()
    colour = f" ({dice[index]})" if index < len(dice) else ""
    return f"die {index + 1}{colour}"


def _upgrade_die(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"upgrade {_die(view, value.die)} one colour"


def _reroll(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"reroll {_die(view, value.die)}"


def _critical(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"activate the Critical result of {_die(view, value.die)}"


def _payer(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    if p.kind == "group_pay":
        return f"{N.hero(view, value.seat)} discards 1 {N.good(p.arg)} for the group"
    return f"pay 1 {N.good(p.arg)} from {N.whose(view, value.seat, me)} supply"


def _cancel(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return "give up the payment, and what it pays for"


def _heal(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    wounds = view.heroes[p.seat].wounds
    if not 0 <= value.index < len(wounds):
        return "heal: discard a Wound tile from your Wound area"
    wound = wounds[value.index]
    at = where(frozenset(dec(cell) for cell in wound.cells))
    return f"heal: discard the {wound.shape} Wound tile at {at} from your Wound area"


def _track(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    return f"gain 1 {value.track.capitalize()} Experience"


def _move(view: ThorgalView, c: Content, p: Pending, value: Any, me: int) -> str:
    crossed = [
        counted(n, f"{colour} Border")
        for n, colour in ((value.reds, "Red"), (value.blues, "Blue"))
        if n
    ]
    how = f" (crossing {listing(crossed)})" if crossed else ""
    return f"move to {N.area(value.area)}{how}"


ANSWERS: dict[str, Answer] = {
    "proceed": _proceed,
    "consent": _consent,
    "use_item": _use_item,
    "use_skill": _use_skill,
    "refresh_skill": _refresh,
    "swap_action_card": _swap,
    "collect_at": _collect,
    "discard_collect_tokens": _discard_collect,
    "pick_location": _location,
    "give_good": _give,
    "take_item": _take_item,
    "discard_item": _discard_item,
    "pick_side_plot": _side_plot,
    "pick_enemy": _enemy_token,
    "pick_good": _pick_good,
    "pick_enemy_card": _enemy_card,
    "upgrade_die": _upgrade_die,
    "reroll_die": _reroll,
    "activate_critical": _critical,
    "pick_payer": _payer,
    "cancel_payment": _cancel,
    "heal_wound": _heal,
    "pick_track": _track,
    "move_to": _move,
}
"""Each :class:`Option` field's words (a test checks every field has some)."""


def answer_words(view: ThorgalView, option: Option, chooser: int) -> str:
    """One answer to ``view.pending`` as the chooser reads it."""
    field, value = option.chosen()
    pending = view.pending
    if pending is None:
        return field.replace("_", " ")
    return ANSWERS[field](view, N.pack(view), pending, value, chooser)


def describe_move(command: Command, seat: int, view: Model, names: Names) -> str:
    """The ruleset's ``describe_move``: a Thorgal move in the rulebook's words.

    ``names`` is unused on purpose: Thorgal's moves name heroes by their
    Character (as the rulebook does), and the chooser's own as "your".
    """
    assert isinstance(view, ThorgalView), type(view)
    c = N.pack(view)
    if isinstance(command, TakeAction):
        return _take_action(view, c, command)
    if isinstance(command, PlaceTile):
        return _tile(view, c, command, seat)
    if isinstance(command, Choose):
        return answer_words(view, command.option, seat)
    raise TypeError(f"thorgal has no move {type(command).__name__}")
