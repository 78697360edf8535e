"""The card models of the content pack: Action, special and Event cards,
Skills, Items, Discoveries and Entries, with the effects and modifiers they carry.

Why apart from :mod:`.content`: the board, adventure and loader models
already fill a module, and the cards are the part that grows as real card
lists are dropped in.  Effects and modifiers accept a shorthand string in
JSON, e.g. ``"gain material 2"`` or ``"extra move 1"``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import model_validator

from domain.contract.core import Model


def _shorthand(data: Any) -> Any:
    """``"gain material 2"`` -> ``{"op": "gain", "arg": "material", "n": 2}``."""
    if not isinstance(data, str):
        return data
    head, *rest = data.split()
    out: dict[str, Any] = {"_": head}
    for token in rest:
        if token.lstrip("-").isdigit():
            out["n"] = int(token)
        elif "=" in token:
            k, v = token.split("=", 1)
            out[k] = v
        else:
            out["arg"] = token
    return out


class _Shorthand(Model):
    """A model that also reads from a shorthand string (:func:`_shorthand`),
    whose first word fills the field named by ``HEAD``."""

    HEAD: ClassVar[str]

    @model_validator(mode="before")
    @classmethod
    def _parse(cls, data: Any) -> Any:
        data = _shorthand(data)
        if isinstance(data, dict) and "_" in data:
            data = {cls.HEAD: data.pop("_"), **data}
        return data


class Effect(_Shorthand):
    """One step of an effect list (the vocabulary is in ``rules/effects.py``)."""

    HEAD: ClassVar[str] = "op"
    op: str
    n: int = 1
    arg: str = ""


class Mod(_Shorthand):
    """A modifier of an action: plus, extra, dice, reroll, upgrade, critical."""

    HEAD: ClassVar[str] = "kind"
    kind: str
    n: int = 1
    arg: str = ""
    action: str = ""
    """Only for this action type ("" = any)."""


class Modifying(Model):
    """What a card adds to an action: modifiers folded into it and effects
    that follow it (the rules' ``use`` and ``fold`` read these two alike)."""

    mods: tuple[Mod, ...] = ()
    effects: tuple[Effect, ...] = ()


class Bonus(Modifying):
    when: str
    """``only`` (exactly one chip here), ``left`` (per chip left), ``below`` (per chip here)."""


class ActionCard(Modifying):
    id: str
    number: int
    actions: tuple[str, ...]
    value: int
    bonus: Bonus | None = None


class SpecialCard(Modifying):
    id: str
    action: str


class Skill(Modifying):
    name: str
    action: str
    refresh: tuple[str, ...] = ()


class Item(Modifying):
    id: str
    action: str
    timing: str = "before"
    """``before`` the action (and the Combat roll) or ``after`` resolving it (see ``items.py``)."""


class Discovery(Model):
    id: str
    effects: tuple[Effect, ...]


class SidePlot(Model):
    title: str
    effects: tuple[Effect, ...]


class Entry(Model):
    id: str
    title: str
    text: str
    effects: tuple[Effect, ...] = ()
    plots: tuple[SidePlot, ...] = ()


class EventCard(Model):
    id: str
    deck: str
    title: str
    immediate: tuple[Effect, ...] = ()
    ongoing: tuple[Mod, ...] = ()
    next_phase: tuple[Effect, ...] = ()
