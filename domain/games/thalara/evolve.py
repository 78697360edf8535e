"""``evolve``: apply one decided event to the state (pure, never validates).

Every handler builds the new state with ``model_copy(update=...)`` (through
the kit's ``with_seat``) and touches only the parts that change, because
replay and random play call this for every event.  Cards leave a zone with
``without_all`` ("drop these ids if present"): card instances are
table-unique ids, and replay must stay exactly as it was when these games
were recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.kit import Evolver, replace_where, with_seat, without_all

from . import events as ev
from .content import card_info
from .state import (
    CASUAL_CHAOS,
    OVER,
    PLAY,
    RETURN,
    SELECT,
    STANDARD,
    ActiveSpell,
    Conflict,
    Play,
    ThalaraState,
)

if TYPE_CHECKING:
    from collections.abc import Callable


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


def next_active(state: ThalaraState, after: int) -> int | None:
    """The next seat clockwise after ``after`` that has not passed (maybe itself)."""
    n = state.seats
    for step in range(1, n + 1):
        seat = (after + step) % n
        if not state.players[seat].passed:
            return seat
    return None


evolve = Evolver[ThalaraState]("thalara")
"""The ruleset's ``evolve(state, event)``; :class:`TypeError` on a foreign event."""


evolve.records(ev.ArtifactsShuffled, stack="order")
evolve.records(ev.FirstPlayerChosen, starter="seat")


@evolve.on(ev.ArtifactsRefilled)
def _(s: ThalaraState, e: ev.ArtifactsRefilled) -> ThalaraState:
    fresh = tuple(Conflict(artifact=a) for a in e.artifacts)
    return s.model_copy(
        update={"stack": s.stack[len(e.artifacts) :], "conflicts": s.conflicts + fresh}
    )


@evolve.on(ev.RoundStarted)
def _(s: ThalaraState, e: ev.RoundStarted) -> ThalaraState:
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


@evolve.on(ev.HandSelected)
def _(s: ThalaraState, e: ev.HandSelected) -> ThalaraState:
    p = s.players[e.seat]
    s = with_seat(
        s,
        e.seat,
        supply=without_all(p.supply, e.cards),
        hand=p.hand + e.cards,
        ready=True,
        commitment=e.commitment,
    )
    phase = PLAY if all(q.ready for q in s.players) else s.phase
    return s.model_copy(update={"phase": phase})


evolve.records_at_seat(ev.SupplyShuffled, supply="order")


@evolve.on(ev.CardsDrawn)
def _(s: ThalaraState, e: ev.CardsDrawn) -> ThalaraState:
    p = s.players[e.seat]
    return with_seat(
        s, e.seat, supply=p.supply[e.count :], hand=p.hand + p.supply[: e.count]
    )


def conflicts_with_play(
    s: ThalaraState, artifact: str, card: str, seat: int
) -> tuple[Conflict, ...]:
    """``s``'s conflicts once ``seat`` plays ``card`` to ``artifact``.

    What ``CardPlayed`` does to the conflicts, on its own: the legal-move
    list asks it of every card and conflict to find the spells a play would
    enable, and needs nothing else of the state after the play."""
    return _conflict(
        s,
        artifact,
        lambda c: c.model_copy(
            update={"plays": c.plays + (Play(card=card, owner=seat),)}
        ),
    )


@evolve.on(ev.CardPlayed)
def _(s: ThalaraState, e: ev.CardPlayed) -> ThalaraState:
    p = s.players[e.seat]
    s = with_seat(s, e.seat, hand=without_all(p.hand, (e.card,)))
    s = s.model_copy(
        update={
            "conflicts": conflicts_with_play(s, e.conflict, e.card, e.seat),
            "last_player": e.seat,
        }
    )
    return s.model_copy(update={"current": next_active(s, e.seat)})


@evolve.on(ev.SpellActivated)
def _(s: ThalaraState, e: ev.SpellActivated) -> ThalaraState:
    active = ActiveSpell(spell=e.spell, caster=e.seat, target=e.target)
    p = s.players[e.seat]
    s = with_seat(s, e.seat, spells_used=p.spells_used + (e.spell,))
    return s.model_copy(
        update={
            "conflicts": _conflict(
                s,
                e.conflict,
                lambda c: c.model_copy(update={"spells": c.spells + (active,)}),
            ),
        }
    )


@evolve.on(ev.CardDestroyed)
def _(s: ThalaraState, e: ev.CardDestroyed) -> ThalaraState:
    def destroy(c: Conflict) -> Conflict:
        plays = replace_where(c.plays, lambda p: p.card == e.card, destroyed=True)
        return c.model_copy(update={"plays": plays})

    return s.model_copy(update={"conflicts": _conflict(s, e.conflict, destroy)})


@evolve.on(ev.CardReturned)
def _(s: ThalaraState, e: ev.CardReturned) -> ThalaraState:
    conflicts = _conflict(
        s,
        e.conflict,
        lambda c: c.model_copy(
            update={"plays": tuple(p for p in c.plays if p.card != e.card)}
        ),
    )
    p = s.players[e.owner]
    if e.to_supply:
        s = with_seat(s, e.owner, supply=tuple(sorted(p.supply + (e.card,))))
    else:
        s = with_seat(s, e.owner, hand=p.hand + (e.card,))
    return s.model_copy(update={"conflicts": conflicts})


@evolve.on(ev.Passed)
def _(s: ThalaraState, e: ev.Passed) -> ThalaraState:
    p = s.players[e.seat]
    if s.mode == STANDARD:
        remnants = tuple(c for c in p.hand if card_info(s, c).kind == "remnant")
        s = with_seat(
            s,
            e.seat,
            passed=True,
            hand=without_all(p.hand, remnants),
            supply=tuple(sorted(p.supply + remnants)),
        )
    else:
        s = with_seat(s, e.seat, passed=True)
    return s.model_copy(update={"current": next_active(s, e.seat)})


@evolve.on(ev.ConflictResolved)
def _(s: ThalaraState, e: ev.ConflictResolved) -> ThalaraState:
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


@evolve.on(ev.RoundEnded)
def _(s: ThalaraState, e: ev.RoundEnded) -> ThalaraState:
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


@evolve.on(ev.RemnantsReturned)
def _(s: ThalaraState, e: ev.RemnantsReturned) -> ThalaraState:
    p = s.players[e.seat]
    return with_seat(
        s,
        e.seat,
        hand=without_all(p.hand, e.cards),
        supply=p.supply + e.cards,
        ready=True,
    )


evolve.records(
    ev.GameEnded, {"phase": OVER, "current": None}, scores="scores", end_reason="reason"
)
