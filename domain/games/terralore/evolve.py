"""``evolve``: apply one event to the state; pure, never validates, never draws.

Zones hold card ids a player owns once each (a deck is 20 single copies), so
removing a card with :func:`~domain.games.kit.without_all` takes exactly that
card, as the former local ``_without`` did.
"""

from __future__ import annotations

from typing import Any

from domain.games.kit import Evolver, with_seat, without_all

from . import events as ev
from .commands import Lane
from .state import Plan, PlayerState, TerraloreState


def _lane(lane: Lane, cards: tuple[str, ...]) -> dict[str, Any]:
    """The ``with_seat`` change that sets a lane's creatures."""
    return {lane.value: cards}


evolve = Evolver[TerraloreState]("terralore")
"""``evolve(state, event)``: the state after ``event``; :class:`TypeError` if unknown."""


@evolve.on(ev.DeckShuffled)
def _(s: TerraloreState, e: ev.DeckShuffled) -> TerraloreState:
    players = s.players or (PlayerState(), PlayerState())
    return with_seat(s.model_copy(update={"players": players}), e.seat, deck=e.order)


@evolve.on(ev.TurnStarted)
def _(s: TerraloreState, e: ev.TurnStarted) -> TerraloreState:
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


@evolve.on(ev.CardsDrawn)
def _(s: TerraloreState, e: ev.CardsDrawn) -> TerraloreState:
    p = s.players[e.seat]
    n = len(e.cards) + len(e.burned)
    return with_seat(
        s,
        e.seat,
        deck=p.deck[n:],
        hand=p.hand + p.deck[: len(e.cards)],
        graveyard=p.graveyard + p.deck[len(e.cards) : n],
    )


@evolve.on(ev.PlacementCommitted)
def _(s: TerraloreState, e: ev.PlacementCommitted) -> TerraloreState:
    plan = Plan(plays=e.plays, discards=e.discards, destroys=e.destroys)
    return with_seat(s, e.seat, plan=plan, nonce=e.nonce)


@evolve.on(ev.PlacementRevealed)
def _(s: TerraloreState, e: ev.PlacementRevealed) -> TerraloreState:
    p = s.players[e.seat]
    played = [pl.card for pl in e.plays]
    return with_seat(
        s,
        e.seat,
        hand=without_all(p.hand, played + list(e.discards)),
        staged=p.staged + tuple(played),
        graveyard=p.graveyard + e.discards,
    )


evolve.records(ev.RevealOrderDecided, reveal_order="order")


@evolve.on(ev.CreaturePlayed, ev.SkillPlayed)
def _(s: TerraloreState, e: ev.CreaturePlayed | ev.SkillPlayed) -> TerraloreState:
    """A staged card is played: a creature into its lane, a skill (once its
    effect is resolved) to the graveyard."""
    p = s.players[e.seat]
    if isinstance(e, ev.CreaturePlayed):
        to = _lane(e.lane, p.lane(e.lane) + (e.card,))
    else:
        to = {"graveyard": p.graveyard + (e.card,)}
    return with_seat(s, e.seat, staged=without_all(p.staged, (e.card,)), **to)


@evolve.on(ev.CreatureDestroyed, ev.CreatureExiled)
def _(s: TerraloreState, e: ev.CreatureDestroyed | ev.CreatureExiled) -> TerraloreState:
    """The creature leaves its lane for the graveyard, or the exile if exiled."""
    zone = "exile" if isinstance(e, ev.CreatureExiled) else "graveyard"
    p = s.players[e.seat]
    return with_seat(
        s,
        e.seat,
        **{zone: getattr(p, zone) + (e.card,)},
        **_lane(e.lane, without_all(p.lane(e.lane), (e.card,))),
    )


@evolve.on(ev.LaneBoosted)
def _(s: TerraloreState, e: ev.LaneBoosted) -> TerraloreState:
    key = f"boost_{e.lane.value}"
    return with_seat(s, e.seat, **{key: getattr(s.players[e.seat], key) + e.amount})


evolve.records_at_seat(ev.CastleDamaged, hp="hp")


@evolve.on(ev.CastleHealed)
def _(s: TerraloreState, e: ev.CastleHealed) -> TerraloreState:
    return with_seat(s, e.seat, hp=e.hp, healed=True)


@evolve.on(ev.CardsDiscarded)
def _(s: TerraloreState, e: ev.CardsDiscarded) -> TerraloreState:
    p = s.players[e.seat]
    return with_seat(
        s, e.seat, hand=without_all(p.hand, e.cards), graveyard=p.graveyard + e.cards
    )


@evolve.on(ev.LanesCounted)
def _(s: TerraloreState, e: ev.LanesCounted) -> TerraloreState:
    return s


@evolve.on(ev.DeckRanOut)
def _(s: TerraloreState, e: ev.DeckRanOut) -> TerraloreState:
    return s


evolve.records(ev.GameEnded, {"phase": "over"}, ranks="ranks", reason="reason")
