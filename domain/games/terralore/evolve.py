"""``evolve``: apply one event to the state; pure, never validates, never draws."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from .commands import Lane
from .events import (
    CardsDiscarded,
    CardsDrawn,
    CastleDamaged,
    CastleHealed,
    CreatureDestroyed,
    CreatureExiled,
    CreaturePlayed,
    DeckRanOut,
    DeckShuffled,
    GameEnded,
    LaneBoosted,
    LanesCounted,
    PlacementCommitted,
    PlacementRevealed,
    RevealOrderDecided,
    SkillPlayed,
    TurnStarted,
)
from .state import Plan, PlayerState, TerraloreState


def _with(state: TerraloreState, seat: int, **update: Any) -> TerraloreState:
    players = list(state.players)
    players[seat] = players[seat].model_copy(update=update)
    return state.model_copy(update={"players": tuple(players)})


def _without(
    zone: tuple[str, ...], cards: tuple[str, ...] | list[str]
) -> tuple[str, ...]:
    gone = set(cards)
    return tuple(c for c in zone if c not in gone)


def _lane_key(lane: Lane) -> str:
    return lane.value


@singledispatch
def evolve(event: object, state: TerraloreState) -> TerraloreState:
    raise TypeError(f"terralore cannot apply {type(event).__name__}")


@evolve.register
def _(e: DeckShuffled, s: TerraloreState) -> TerraloreState:
    players = s.players or (PlayerState(), PlayerState())
    players = tuple(
        p.model_copy(update={"deck": e.order}) if i == e.seat else p
        for i, p in enumerate(players)
    )
    return s.model_copy(update={"players": players})


@evolve.register
def _(e: TurnStarted, s: TerraloreState) -> TerraloreState:
    players = tuple(
        p.model_copy(
            update={
                "plan": None,
                "nonce": "",
                "boost_defending": 0,
                "boost_attacking": 0,
            }
        )
        for p in s.players
    )
    return s.model_copy(update={"turn": e.turn, "phase": "play", "players": players})


@evolve.register
def _(e: CardsDrawn, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    n = len(e.cards) + len(e.burned)
    return _with(
        s,
        e.seat,
        deck=p.deck[n:],
        hand=p.hand + p.deck[: len(e.cards)],
        graveyard=p.graveyard + p.deck[len(e.cards) : n],
    )


@evolve.register
def _(e: PlacementCommitted, s: TerraloreState) -> TerraloreState:
    plan = Plan(plays=e.plays, discards=e.discards, destroys=e.destroys)
    return _with(s, e.seat, plan=plan, nonce=e.nonce)


@evolve.register
def _(e: PlacementRevealed, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    played = [pl.card for pl in e.plays]
    return _with(
        s,
        e.seat,
        hand=_without(p.hand, played + list(e.discards)),
        staged=p.staged + tuple(played),
        graveyard=p.graveyard + e.discards,
    )


@evolve.register
def _(e: RevealOrderDecided, s: TerraloreState) -> TerraloreState:
    return s.model_copy(update={"reveal_order": e.order})


@evolve.register
def _(e: CreaturePlayed, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    key = _lane_key(e.lane)
    return _with(
        s,
        e.seat,
        staged=_without(p.staged, (e.card,)),
        **{key: p.lane(e.lane) + (e.card,)},
    )


@evolve.register
def _(e: SkillPlayed, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    return _with(
        s,
        e.seat,
        staged=_without(p.staged, (e.card,)),
        graveyard=p.graveyard + (e.card,),
    )


@evolve.register
def _(e: CreatureDestroyed, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    return _with(
        s,
        e.seat,
        graveyard=p.graveyard + (e.card,),
        **{_lane_key(e.lane): _without(p.lane(e.lane), (e.card,))},
    )


@evolve.register
def _(e: CreatureExiled, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    return _with(
        s,
        e.seat,
        exile=p.exile + (e.card,),
        **{_lane_key(e.lane): _without(p.lane(e.lane), (e.card,))},
    )


@evolve.register
def _(e: LaneBoosted, s: TerraloreState) -> TerraloreState:
    key = f"boost_{e.lane.value}"
    return _with(s, e.seat, **{key: getattr(s.players[e.seat], key) + e.amount})


@evolve.register
def _(e: CastleDamaged, s: TerraloreState) -> TerraloreState:
    return _with(s, e.seat, hp=e.hp)


@evolve.register
def _(e: CastleHealed, s: TerraloreState) -> TerraloreState:
    return _with(s, e.seat, hp=e.hp, healed=True)


@evolve.register
def _(e: CardsDiscarded, s: TerraloreState) -> TerraloreState:
    p = s.players[e.seat]
    return _with(
        s, e.seat, hand=_without(p.hand, e.cards), graveyard=p.graveyard + e.cards
    )


@evolve.register
def _(e: LanesCounted, s: TerraloreState) -> TerraloreState:
    return s


@evolve.register
def _(e: DeckRanOut, s: TerraloreState) -> TerraloreState:
    return s


@evolve.register
def _(e: GameEnded, s: TerraloreState) -> TerraloreState:
    return s.model_copy(update={"phase": "over", "ranks": e.ranks, "reason": e.reason})


def apply(state: TerraloreState, event: object) -> TerraloreState:
    """The contract's argument order: ``evolve(state, event)``."""
    return evolve(event, state)
