"""``evolve``: apply one decided event to the state (pure, never validates).

Every branch builds the new state with ``model_copy(update=...)`` and touches
only the parts that change, because replay and random play call this for
every event.
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING

from domain.games.thalara import events as ev
from domain.games.thalara.content import card_info
from domain.games.thalara.state import (
    CASUAL_CHAOS,
    OVER,
    PLAY,
    RETURN,
    SELECT,
    STANDARD,
    ActiveSpell,
    Conflict,
    Play,
    PlayerState,
    ThalaraState,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from domain.core import Event


def _player(
    state: ThalaraState, seat: int, **changes: object
) -> tuple[PlayerState, ...]:
    players = list(state.players)
    players[seat] = players[seat].model_copy(update=changes)
    return tuple(players)


def _conflict(
    state: ThalaraState, artifact: str, change: Callable[[Conflict], Conflict | None]
) -> tuple[Conflict, ...]:
    out = []
    for c in state.conflicts:
        if c.artifact == artifact:
            new = change(c)
            if new is not None:
                out.append(new)
        else:
            out.append(c)
    return tuple(out)


def _without(items: tuple[str, ...], gone: tuple[str, ...] | str) -> tuple[str, ...]:
    drop = {gone} if isinstance(gone, str) else set(gone)
    return tuple(i for i in items if i not in drop)


def next_active(state: ThalaraState, after: int) -> int | None:
    """The next seat clockwise after ``after`` that has not passed (maybe itself)."""
    n = state.seats
    for step in range(1, n + 1):
        seat = (after + step) % n
        if not state.players[seat].passed:
            return seat
    return None


@singledispatch
def evolve(event: Event, state: ThalaraState) -> ThalaraState:
    raise TypeError(f"thalara cannot apply {type(event).__name__}")


def apply(state: ThalaraState, event: Event) -> ThalaraState:
    """The ruleset's ``evolve(state, event)``."""
    return evolve(event, state)


@evolve.register
def _(e: ev.ArtifactsShuffled, s: ThalaraState) -> ThalaraState:
    return s.model_copy(update={"stack": e.order})


@evolve.register
def _(e: ev.FirstPlayerChosen, s: ThalaraState) -> ThalaraState:
    return s.model_copy(update={"starter": e.seat})


@evolve.register
def _(e: ev.ArtifactsRefilled, s: ThalaraState) -> ThalaraState:
    fresh = tuple(Conflict(artifact=a) for a in e.artifacts)
    return s.model_copy(
        update={"stack": s.stack[len(e.artifacts) :], "conflicts": s.conflicts + fresh}
    )


@evolve.register
def _(e: ev.RoundStarted, s: ThalaraState) -> ThalaraState:
    players = tuple(
        p.model_copy(update={"passed": False, "ready": False, "commitment": None})
        for p in s.players
    )
    phase = SELECT if s.mode == STANDARD else PLAY
    return s.model_copy(
        update={
            "round": e.round,
            "starter": e.starter,
            "current": e.starter,
            "phase": phase,
            "players": players,
        }
    )


@evolve.register
def _(e: ev.HandSelected, s: ThalaraState) -> ThalaraState:
    p = s.players[e.seat]
    players = _player(
        s,
        e.seat,
        supply=_without(p.supply, e.cards),
        hand=p.hand + e.cards,
        ready=True,
        commitment=e.commitment,
    )
    phase = PLAY if all(q.ready for q in players) else s.phase
    return s.model_copy(update={"players": players, "phase": phase})


@evolve.register
def _(e: ev.SupplyShuffled, s: ThalaraState) -> ThalaraState:
    return s.model_copy(update={"players": _player(s, e.seat, supply=e.order)})


@evolve.register
def _(e: ev.CardsDrawn, s: ThalaraState) -> ThalaraState:
    p = s.players[e.seat]
    players = _player(
        s, e.seat, supply=p.supply[e.count :], hand=p.hand + p.supply[: e.count]
    )
    return s.model_copy(update={"players": players})


@evolve.register
def _(e: ev.CardPlayed, s: ThalaraState) -> ThalaraState:
    p = s.players[e.seat]
    s = s.model_copy(
        update={
            "players": _player(s, e.seat, hand=_without(p.hand, e.card)),
            "conflicts": _conflict(
                s,
                e.conflict,
                lambda c: c.model_copy(
                    update={"plays": c.plays + (Play(card=e.card, owner=e.seat),)}
                ),
            ),
            "last_player": e.seat,
        }
    )
    return s.model_copy(update={"current": next_active(s, e.seat)})


@evolve.register
def _(e: ev.SpellActivated, s: ThalaraState) -> ThalaraState:
    active = ActiveSpell(spell=e.spell, caster=e.seat, target=e.target)
    p = s.players[e.seat]
    return s.model_copy(
        update={
            "players": _player(s, e.seat, spells_used=p.spells_used + (e.spell,)),
            "conflicts": _conflict(
                s,
                e.conflict,
                lambda c: c.model_copy(update={"spells": c.spells + (active,)}),
            ),
        }
    )


@evolve.register
def _(e: ev.CardDestroyed, s: ThalaraState) -> ThalaraState:
    def destroy(c: Conflict) -> Conflict:
        plays = tuple(
            p.model_copy(update={"destroyed": True}) if p.card == e.card else p
            for p in c.plays
        )
        return c.model_copy(update={"plays": plays})

    return s.model_copy(update={"conflicts": _conflict(s, e.conflict, destroy)})


@evolve.register
def _(e: ev.CardReturned, s: ThalaraState) -> ThalaraState:
    conflicts = _conflict(
        s,
        e.conflict,
        lambda c: c.model_copy(
            update={"plays": tuple(p for p in c.plays if p.card != e.card)}
        ),
    )
    p = s.players[e.owner]
    if e.to_supply:
        players = _player(s, e.owner, supply=tuple(sorted(p.supply + (e.card,))))
    else:
        players = _player(s, e.owner, hand=p.hand + (e.card,))
    return s.model_copy(update={"conflicts": conflicts, "players": players})


@evolve.register
def _(e: ev.Passed, s: ThalaraState) -> ThalaraState:
    p = s.players[e.seat]
    changes: dict[str, object] = {"passed": True}
    if s.mode == STANDARD:
        remnants = tuple(c for c in p.hand if card_info(s, c).kind == "remnant")
        changes["hand"] = _without(p.hand, remnants)
        changes["supply"] = tuple(sorted(p.supply + remnants))
    s = s.model_copy(update={"players": _player(s, e.seat, **changes)})
    return s.model_copy(update={"current": next_active(s, e.seat)})


@evolve.register
def _(e: ev.ConflictResolved, s: ThalaraState) -> ThalaraState:
    players = list(s.players)
    won = None
    for c in s.conflicts:
        if c.artifact != e.conflict:
            continue
        for play in c.plays:
            owner = players[play.owner]
            if card_info(s, play.card).kind == "artifact":
                players[play.owner] = owner.model_copy(
                    update={"hand": owner.hand + (play.card,)}
                )
            else:
                players[play.owner] = owner.model_copy(
                    update={"discard": owner.discard + (play.card,)}
                )
        won = c
    if e.winner is not None and won is not None:
        w = players[e.winner]
        players[e.winner] = w.model_copy(
            update={"hand": w.hand + (won.artifact,), "won": w.won + (won.artifact,)}
        )
        conflicts = _conflict(s, e.conflict, lambda c: None)
    else:
        conflicts = _conflict(s, e.conflict, lambda c: Conflict(artifact=c.artifact))
    return s.model_copy(update={"players": tuple(players), "conflicts": conflicts})


@evolve.register
def _(e: ev.RoundEnded, s: ThalaraState) -> ThalaraState:
    chaos = s.mode == CASUAL_CHAOS
    players = tuple(
        p.model_copy(
            update={
                "spells_used": (),
                "passed": False,
                "commitment": None,
                "ready": not (
                    chaos and any(card_info(s, c).kind == "remnant" for c in p.hand)
                ),
            }
        )
        for p in s.players
    )
    phase = RETURN if not all(p.ready for p in players) else s.phase
    return s.model_copy(update={"players": players, "phase": phase, "current": None})


@evolve.register
def _(e: ev.RemnantsReturned, s: ThalaraState) -> ThalaraState:
    p = s.players[e.seat]
    players = _player(
        s, e.seat, hand=_without(p.hand, e.cards), supply=p.supply + e.cards, ready=True
    )
    return s.model_copy(update={"players": players})


@evolve.register
def _(e: ev.GameEnded, s: ThalaraState) -> ThalaraState:
    return s.model_copy(
        update={
            "phase": OVER,
            "scores": e.scores,
            "end_reason": e.reason,
            "current": None,
        }
    )
