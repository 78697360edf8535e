"""The table half of Thorgal's ``evolve``: the Journey path, Collect tokens,
Locations, Combat and cards.

Why a module of its own: with the setup, deck, question, turn and character
handlers, one table passed the ~300-line guideline.  The handlers fill their
own :class:`~domain.games.kit.Evolver`, which :mod:`.evolve` includes
explicitly (``Evolver.include``) into the game's one table; nothing here is
registered by the side effect of an import.  A Combat card's tile leaving the
hand is removed with :func:`~domain.games.kit.without_one` (see :mod:`.evolve`).
"""

from __future__ import annotations

from typing import Any

from domain.games.kit import (
    Evolver,
    replace_where,
    replaced_at,
    with_seat,
    without_all,
    without_one,
)

from . import events as ev
from .content import add_goods
from .state import ThorgalState, Tile


def _site(state: ThorgalState, lid: str, **update: Any) -> ThorgalState:
    sites = replace_where(state.sites, lambda site: site.id == lid, **update)
    return state.model_copy(update={"sites": sites})


board = Evolver[ThorgalState]("thorgal")
"""The table's handlers; only :mod:`.evolve` uses it, through ``include``."""


@board.on(ev.JourneyTilePlaced)
def _(s: ThorgalState, e: ev.JourneyTilePlaced) -> ThorgalState:
    return s.model_copy(update={"path": s.path + (Tile(shape=e.shape, cells=e.cells),)})


@board.on(ev.CollectTokenPlaced)
def _(s: ThorgalState, e: ev.CollectTokenPlaced) -> ThorgalState:
    return s.model_copy(update={"collect_tokens": s.collect_tokens + (e.cell,)})


@board.on(ev.CollectTokensDiscarded)
def _(s: ThorgalState, e: ev.CollectTokensDiscarded) -> ThorgalState:
    keep = without_all(s.collect_tokens, e.cells)
    return s.model_copy(update={"collect_tokens": keep})


@board.on(ev.GoodsAssigned)
def _(s: ThorgalState, e: ev.GoodsAssigned) -> ThorgalState:
    s = with_seat(
        s, e.from_seat, "heroes", goods=add_goods(s.hero(e.from_seat).goods, e.good, -1)
    )
    return _site(
        s, e.location, assigned=add_goods(s.site(e.location).assigned, e.good, 1)
    )


@board.on(ev.AssignedGoodsDiscarded)
def _(s: ThorgalState, e: ev.AssignedGoodsDiscarded) -> ThorgalState:
    left = tuple(a - b for a, b in zip(s.site(e.location).assigned, e.goods))
    return _site(s, e.location, assigned=left)


@board.on(ev.EnemiesChanged)
def _(s: ThorgalState, e: ev.EnemiesChanged) -> ThorgalState:
    return _site(s, e.location, enemies=e.enemies)


@board.on(ev.LocationMarked)
def _(s: ThorgalState, e: ev.LocationMarked) -> ThorgalState:
    site = s.site(e.location)
    if e.token == "cost":
        return _site(
            s,
            e.location,
            cost_tokens=site.cost_tokens + 1,
            extra_cost=add_goods(site.extra_cost, e.good, 1),
        )
    field = {"blockade": "blockade", "cover": "cover", "entry": "entry_token"}[e.token]
    return _site(s, e.location, **{field: True})


board.records(ev.CombatBegan, combat="combat")


def _combat(s: ThorgalState, **update: Any) -> ThorgalState:
    assert s.combat is not None
    return s.model_copy(update={"combat": s.combat.model_copy(update=update)})


def _per_die(s: ThorgalState, field: str, index: int, value: Any) -> ThorgalState:
    """``s`` with die ``index``'s entry of the combat's per-die ``field`` (its
    colour in ``dice``, its face, its critical flag) set to ``value``."""
    assert s.combat is not None
    return _combat(s, **{field: replaced_at(getattr(s.combat, field), index, value)})


@board.on(ev.DiceRolled)
def _(s: ThorgalState, e: ev.DiceRolled) -> ThorgalState:
    return _combat(s, faces=e.faces, rolled=True, critical=(False,) * len(e.faces))


@board.on(ev.DieUpgraded)
def _(s: ThorgalState, e: ev.DieUpgraded) -> ThorgalState:
    return _per_die(s, "dice", e.index, e.colour)


@board.on(ev.DieAdded)
def _(s: ThorgalState, e: ev.DieAdded) -> ThorgalState:
    assert s.combat is not None
    return _combat(s, dice=s.combat.dice + (e.colour,))


@board.on(ev.DieRerolled)
def _(s: ThorgalState, e: ev.DieRerolled) -> ThorgalState:
    return _per_die(s, "faces", e.index, e.face)


@board.on(ev.CriticalActivated)
def _(s: ThorgalState, e: ev.CriticalActivated) -> ThorgalState:
    return _per_die(s, "critical", e.index, True)


@board.on(ev.CombatTilePlaced)
def _(s: ThorgalState, e: ev.CombatTilePlaced) -> ThorgalState:
    assert s.combat is not None
    return _combat(
        s,
        placed=s.combat.placed + (Tile(shape=e.shape, cells=e.cells),),
        left=without_one(s.combat.left, e.shape),
    )


@board.on(ev.CombatTileDropped)
def _(s: ThorgalState, e: ev.CombatTileDropped) -> ThorgalState:
    return _combat(s, left=())


board.records(ev.CombatEnded, {"combat": None})


@board.on(ev.EntryRead)
def _(s: ThorgalState, e: ev.EntryRead) -> ThorgalState:
    return s.model_copy(update={"entries_read": s.entries_read + (e.entry,)})


@board.on(ev.SidePlotChosen)
def _(s: ThorgalState, e: ev.SidePlotChosen) -> ThorgalState:
    return s


board.records(ev.ActionCardSwapped, row="row")


@board.on(ev.SpecialCardGained)
def _(s: ThorgalState, e: ev.SpecialCardGained) -> ThorgalState:
    return s.model_copy(update={"specials": s.specials + (e.card,)})
