"""Folding card modifiers into the action being prepared.

Why a module of its own: an Action card, its Bonus section, a Special card,
the active Event, an Item and the Skill all modify the action the same way,
and both ``flow`` (building the action) and ``items`` (using a card partway
through) need it; neither owns the other.
"""

from __future__ import annotations

from ..cards import Mod
from ..state import Act, Task


def fold(act: Act, mods: tuple[Mod, ...], times: int, extras: list[Task]) -> Act:
    upd = act.model_dump()
    for m in mods:
        if m.action and m.action != act.action:
            continue
        if m.kind == "plus":
            upd["value"] += m.n * times
        elif m.kind == "dice":
            upd["dice"] = tuple(upd["dice"]) + (m.arg,) * (m.n * times)
        elif m.kind in ("reroll", "upgrade", "critical"):
            key = {"reroll": "rerolls", "upgrade": "upgrades", "critical": "criticals"}[
                m.kind
            ]
            upd[key] += m.n * times
        elif m.kind == "extra" and times:
            extras.append(Task(op="action", arg=m.arg, n=m.n * times, seat=act.seat))
    return Act(**upd)
