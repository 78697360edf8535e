"""The decider functions: start, decide, legal_commands and friends.

The task handlers that ``decide`` runs live in the sub-modules, one
:class:`~.engine.Handlers` table each; :data:`ENGINE` is built here from the
explicit list of them (a module left off it fails the test that every op and
question has a handler), with ``flow``'s rule for an empty stack as its hook.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.contract.core import (
    Command,
    Event,
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
    Outcome,
    Rng,
    Seat,
    Termination,
)

from .. import events as ev
from ..commands import Choose, PlaceTile, TakeAction
from ..content import TIERS, load
from ..state import Task, ThorgalState
from . import actions, board, combat, effects, flow, items, payments, travel
from . import polyomino as P
from .engine import PLACING, Ctx, Engine, cells_enc, spots
from .options import notation

TABLES = (
    actions.HANDLERS,
    board.HANDLERS,
    combat.HANDLERS,
    effects.HANDLERS,
    flow.HANDLERS,
    items.HANDLERS,
    payments.HANDLERS,
    travel.HANDLERS,
)
"""Every module's handler table: the engine knows exactly these."""
ENGINE = Engine.of(TABLES, idle=flow.after_tasks)


def start(state: ThorgalState, rng: Rng) -> list[Event]:
    c = load(state.content)
    ctx = Ctx(state, rng)
    chars = tuple(state.reason.split(","))
    ctx.emit(
        ev.AdventureStarted(
            seats=state.seats, characters=chars, first=rng.randbelow(state.seats)
        )
    )
    starting = {c.character(ch).item for ch in chars} | {ch.item for ch in c.characters}
    decks = {
        d: [e.id for e in c.events if e.deck == d] for d in c.adventure.event_decks
    }
    decks["terrain"] = [t.id for t in c.terrain]
    decks["discovery"] = [d.id for d in c.discoveries]
    decks["items"] = [i.id for i in c.items if i.id not in starting]
    for tier in TIERS:
        decks[f"enemy_{tier}"] = [e.id for e in c.enemies if e.tier == tier]
    for name, cards in decks.items():
        order = rng.shuffle(cards)
        ctx.emit(ev.DeckShuffled(deck=name, cards=order, size=len(order)))
    ctx.draw("terrain", 1, "terrain")
    ctx.draw("items", 5, "display")
    ctx.schedule(Task(op="begin_round"))
    ENGINE.run(ctx)
    return ctx.events


def _placement(state: ThorgalState, seat: int, cmd: PlaceTile) -> tuple[int, ...]:
    p = state.pending
    assert p is not None
    if cmd.shape not in P.SHAPES:
        raise InvalidCommandError(f"unknown tile {cmd.shape}")
    if cmd.shape not in p.shapes:
        raise IllegalCommandError(
            "thorgal.tile-not-offered", f"{cmd.shape} is not available now"
        )
    try:
        cells = P.cells_posed(cmd.shape, cmd.rotation, cmd.mirrored, cmd.row, cmd.col)
    except ValueError as exc:
        raise InvalidCommandError(str(exc)) from None
    for _, _, _, legal in spots(state, p.kind, seat, cmd.shape):
        if legal == cells:
            return cells_enc(cells)
    raise IllegalCommandError(
        f"thorgal.{p.kind.replace('_', '-')}",
        "the tile must fit the grid, overlap nothing and touch as required",
    )


def decide(state: ThorgalState, command: Command, actor: Seat, rng: Rng) -> list[Event]:
    if state.phase == "over":
        raise GameOverError()
    if not 0 <= actor < state.seats:
        raise InvalidCommandError(f"no seat {actor}")
    ctx = Ctx(state, rng)
    p = state.pending
    if isinstance(command, TakeAction):
        if state.phase != "action":
            raise IllegalCommandError(
                "thorgal.not-action-step", "finish resolving the turn first"
            )
        if actor != state.turn_seat():
            raise NotYourTurnError()
        flow.take_action(ctx, actor, command.chip, command.slot, command.option)
    elif isinstance(command, (Choose, PlaceTile)):
        if p is None:
            raise IllegalCommandError(
                "thorgal.no-question", "there is nothing to answer now"
            )
        if actor != p.seat:
            raise NotYourTurnError("another seat must answer this")
        if isinstance(command, Choose):
            if p.kind in PLACING:
                raise IllegalCommandError(
                    "thorgal.place-a-tile", "a tile must be placed"
                )
            if command.option not in p.options:
                raise IllegalCommandError(
                    "thorgal.not-an-option",
                    f"{notation(command.option)!r} is not an option",
                )
            ctx.emit(ev.ChoiceMade(seat=actor, kind=p.kind, option=command.option))
            ENGINE.resume(ctx, p, command.option)
        else:
            if p.kind not in PLACING:
                raise IllegalCommandError(
                    "thorgal.not-placing", "no tile is to be placed now"
                )
            cells = _placement(state, actor, command)
            ctx.emit(ev.ChoiceMade(seat=actor, kind=p.kind))
            ENGINE.resume(ctx, p, command.shape, cells)
    else:
        raise InvalidCommandError(f"unknown command {type(command).__name__}")
    ENGINE.run(ctx)
    return ctx.events


def legal_commands(state: ThorgalState, seat: Seat) -> Iterator[Command]:
    if state.phase == "over":
        return
    if state.phase == "action" and state.pending is None:
        if seat != state.turn_seat():
            return
        c = load(state.content)
        seen: set[int] = set()
        for i, chip in enumerate(state.chips):
            if not chip.active or chip.slot in seen:
                continue
            seen.add(chip.slot)
            for slot, cid in enumerate(state.row):
                if slot != chip.slot:
                    for action in range(len(c.card(cid).actions)):
                        yield TakeAction(chip=i, slot=slot, option=action)
        return
    p = state.pending
    if p is None or p.seat != seat:
        return
    if p.kind in PLACING:
        for shape in p.shapes:
            for o, r, col, _ in spots(state, p.kind, seat, shape):
                rotation, mirrored = P.pose(shape, o)
                yield PlaceTile(
                    shape=shape, rotation=rotation, mirrored=mirrored, row=r, col=col
                )
        return
    for option in p.options:
        yield Choose(option=option)


def random_command(
    state: ThorgalState, seat: Seat, rnd: random.Random
) -> Command | None:
    """Like ``legal_commands`` but picks a tile first, so placements stay cheap."""
    p = state.pending
    if p is not None and p.kind in PLACING and p.seat == seat:
        shape = rnd.choice(p.shapes)
        placements = list(spots(state, p.kind, seat, shape))
        o, r, col, _ = rnd.choice(placements)
        rotation, mirrored = P.pose(shape, o)
        return PlaceTile(
            shape=shape, rotation=rotation, mirrored=mirrored, row=r, col=col
        )
    options = list(legal_commands(state, seat))
    return rnd.choice(options) if options else None


def to_act(state: ThorgalState) -> tuple[Seat, ...]:
    if state.phase == "over":
        return ()
    if state.pending is not None:
        return (state.pending.seat,)
    if state.phase == "action":
        return (state.turn_seat(),)
    return ()


def outcome(state: ThorgalState) -> Outcome | None:
    if state.phase != "over":
        return None
    seats = tuple(range(state.seats))
    won = state.result == "won"
    return Outcome(
        termination=Termination.TEAM_WON if won else Termination.TEAM_LOST,
        ranks=tuple(1 for _ in seats),
        scores=tuple(0 for _ in seats),
        winners=seats if won else (),
        reason=state.reason,
    )
