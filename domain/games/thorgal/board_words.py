"""Thorgal's things in the rulebook's words: questions, icons, effects, answers.

Why apart from the layout (:mod:`.board`): the layout places things; this
says what they are called, once, for the drawing and the text board alike.
"""

from __future__ import annotations

from domain.words.sentences import Names, fields_words, listing, seat_name, words

from .cards import Effect, Mod, _Shorthand
from .commands import Option
from .content import GOODS, ICON_GOOD

QUESTIONS: dict[str, str] = {
    "prepare": "use an Item or the Skill before the action, or begin it",
    "move": "choose where to Move",
    "collect": "choose the good to Collect",
    "assign": "choose the Location to Assign Goods to",
    "assign_good": "choose a Good to Assign",
    "consent": "agree to share Goods, or refuse",
    "pay_consent": "agree to pay from their supply, or refuse",
    "pay_from": "choose who pays",
    "group_pay": "choose who discards",
    "cost_good": "choose the Good the Cost token raises",
    "area_good": "choose a Good of the Area",
    "sacrifice": "choose the Location to Sacrifice at",
    "target": "choose the Enemy to fight",
    "upgrade": "choose the Enemy to Upgrade",
    "degrade": "choose the Enemy to Degrade",
    "place_enemy": "choose where the Enemy goes",
    "enemy_order": "lay out the Enemy cards, left to right",
    "upgrade_die": "upgrade dice before the Combat roll",
    "combat_mod": "reroll dice or activate Criticals",
    "heal": "choose a Wound tile to Heal",
    "after_item": "use an Item after the action",
    "place_wound": "place a Wound tile on the Wound area",
    "place_journey": "place a Journey tile on the Terrain cards",
    "place_combat": "place a Combat tile on the Enemy cards",
}
"""Each open question's kind, as the rulebook asks it of a player."""

ICONS: dict[str, str] = {
    ".": "empty",
    "*": "the Area's good",
    "H": "Heal",
    "X": "Experience",
    "D": "Discovery card",
    "r": "red penalty",
    "y": "yellow penalty",
    "R": "the Area's good and a red penalty",
    "Y": "the Area's good and a yellow penalty",
    "h": "Enemy heart",
    **ICON_GOOD,
}


def named(text: str) -> str:
    return text.replace("_", " ").title()


def effect_words(e: _Shorthand) -> str:
    """``gain material 1``, ``reroll 2``: a card's shorthand, spaced as words."""
    if isinstance(e, Mod):
        also = f" ({e.action})" if e.action else ""
        return " ".join(p for p in (words(e.kind), str(e.n), e.arg) if p) + also
    assert isinstance(e, Effect), e
    if e.op == "heal":
        return f"heal {e.n}" + (f" (tiles up to size {e.arg})" if e.arg else "")
    if e.arg and e.n == 1 and not e.arg.isalpha():
        return f"{words(e.op)} {e.arg}"
    return " ".join(p for p in (words(e.op), str(e.n), e.arg) if p)


def goods_words(counts: tuple[int, ...]) -> str:
    return listing(
        [f"{n} {g}" for g, n in zip(GOODS, counts, strict=False) if n], "none"
    )


def option_words(option: Option, names: Names) -> str:
    """An answer as a player says it: ``agree``, ``move to the Forest crossing
    1 Red border``, ``1 ore from sam``; a kind without a phrase here reads
    as its name and fields."""
    name, v = option.chosen()
    if name == "proceed":
        return "go on"
    if name == "consent":
        return "agree" if v.agree else "refuse"
    if name == "move_to":
        crossing = [
            f"{n} {k} border{'s' if n != 1 else ''}"
            for k, n in (("Red", v.reds), ("Blue", v.blues))
            if n
        ]
        return f"move to the {named(v.area)}" + (
            f" crossing {listing(crossing)}" if crossing else ""
        )
    if name == "give_good":
        return f"1 {v.good} from {seat_name(names, v.from_seat)}"
    if name == "pick_enemy":
        return f"Enemy token {v.index + 1} at the {named(v.location)}"
    if name == "pick_location":
        return f"the {named(v.location)}"
    if name == "pick_payer":
        return f"{seat_name(names, v.seat)} pays"
    if name in ("use_item", "take_item", "discard_item"):
        return f"{words(name).split()[0]} {named(v.item)}"
    if name in ("use_skill", "refresh_skill", "cancel_payment"):
        return {"use_skill": "use the Skill", "refresh_skill": "refresh the Skill"}.get(
            name, "cancel the payment"
        )
    said = fields_words(v, names)
    return f"{words(name)} {said}".strip()
