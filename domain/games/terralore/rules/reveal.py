"""Reveal, Counting and the next Draw: everything decided once both plans are in.

All of it happens inside the decision of the second ``PlaceCards``, so the
events are built against a running state (a :class:`~domain.games.kit.Decision`): each effect sees the
field exactly as the previous events left it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract.core import ranks_from_scores
from domain.games.kit import Decision

from .. import content
from ..commands import Lane
from ..content import EffectKind
from ..events import (
    CardsDiscarded,
    CardsDrawn,
    CastleDamaged,
    CastleHealed,
    CreatureDestroyed,
    CreatureExiled,
    CreaturePlayed,
    DeckRanOut,
    GameEnded,
    LaneBoosted,
    LaneRef,
    LanesCounted,
    PlacementRevealed,
    RevealOrderDecided,
    SkillPlayed,
    TurnStarted,
)
from ..state import TerraloreState

if TYPE_CHECKING:
    from domain.contract.core import Rng

    from ..content import Effect
    from ..state import PlayerState

HAND_LIMIT = 7
DRAW_PER_TURN = 2
DIE_SIDES = 6


def field_points(player: PlayerState) -> int:
    """Creature points on a player's side of the field (both lanes, no bonuses)."""
    return sum(content.card(c).points for c in player.defending + player.attacking)


def lane_total(player: PlayerState, lane: Lane) -> int:
    return sum(content.card(c).points for c in player.lane(lane)) + player.boost(lane)


def draw(tx: Decision[TerraloreState], seat: int, n: int) -> None:
    """Draw up to ``n`` (an empty deck just stops); cards past the hand limit burn."""
    p = tx.state.players[seat]
    take = min(n, len(p.deck))
    if take == 0:
        return
    keep = max(0, min(take, HAND_LIMIT - len(p.hand)))
    tx.emit(
        CardsDrawn(seat=seat, count=take, cards=p.deck[:keep], burned=p.deck[keep:take])
    )


def decide_reveal_order(tx: Decision[TerraloreState], rng: Rng) -> None:
    """Who goes first: the die in round 1 and on a perfect tie, else the loser."""
    players = tx.state.players
    hp = [p.hp for p in players]
    pts = [field_points(p) for p in players]
    rolls: list[int] = []
    if tx.state.turn == 1 or (hp[0] == hp[1] and pts[0] == pts[1]):
        reason = "round-one" if tx.state.turn == 1 else "perfect-tie"
        while not rolls or rolls[-1] == rolls[-2]:
            rolls += [rng.roll(DIE_SIDES), rng.roll(DIE_SIDES)]
        first = 0 if rolls[-2] > rolls[-1] else 1
    elif hp[0] != hp[1]:
        reason, first = "lower-hp", (0 if hp[0] < hp[1] else 1)
    else:
        reason, first = "fewer-points", (0 if pts[0] < pts[1] else 1)
    other = 1 - first
    order = (
        LaneRef(seat=first, lane=Lane.DEFENDING),
        LaneRef(seat=other, lane=Lane.ATTACKING),
        LaneRef(seat=other, lane=Lane.DEFENDING),
        LaneRef(seat=first, lane=Lane.ATTACKING),
    )
    tx.emit(
        RevealOrderDecided(first=first, reason=reason, order=order, rolls=tuple(rolls))
    )


def resolve_lane(tx: Decision[TerraloreState], seat: int, lane: Lane, rng: Rng) -> None:
    """Room is made first, then the lane's cards enter in plan order."""
    plan = tx.state.players[seat].plan
    if plan is None:
        return
    for victim in plan.destroys:
        if victim in tx.state.players[seat].lane(lane):
            tx.emit(CreatureDestroyed(seat=seat, lane=lane, card=victim, reason="room"))
    for play in plan.plays:
        if play.lane is not lane:
            continue
        card = content.card(play.card)
        if card.is_creature:
            tx.emit(CreaturePlayed(seat=seat, lane=lane, card=card.id))
        else:
            tx.emit(SkillPlayed(seat=seat, lane=lane, card=card.id))
            for effect in card.effects:
                apply_effect(tx, seat, lane, effect, rng)


def apply_effect(
    tx: Decision[TerraloreState], seat: int, here: Lane, effect: Effect, rng: Rng
) -> None:
    opp = 1 - seat
    kind, n = effect.kind, effect.amount
    if kind in (EffectKind.DESTROY, EffectKind.EXILE):
        facing = here.facing
        lane = tx.state.players[opp].lane(facing)
        ranked = sorted(
            range(len(lane)), key=lambda i: (-content.card(lane[i]).points, i)
        )
        for i in ranked[:n]:
            if kind is EffectKind.DESTROY:
                tx.emit(
                    CreatureDestroyed(
                        seat=opp, lane=facing, card=lane[i], reason="effect"
                    )
                )
            else:
                tx.emit(CreatureExiled(seat=opp, lane=facing, card=lane[i]))
    elif kind is EffectKind.BONUS:
        tx.emit(LaneBoosted(seat=seat, lane=here, amount=n))
    elif kind is EffectKind.DAMAGE:
        damage(tx, opp, n, "effect")
    elif kind is EffectKind.HEAL:
        hp = tx.state.players[seat].hp
        tx.emit(CastleHealed(seat=seat, amount=n, hp=hp + n))
    elif kind is EffectKind.DRAW:
        draw(tx, seat, n)
    elif kind is EffectKind.DISCARD:
        hand = tx.state.players[opp].hand
        if hand and n > 0:
            tx.emit(CardsDiscarded(seat=opp, cards=rng.shuffle(hand)[:n]))


def damage(tx: Decision[TerraloreState], seat: int, amount: int, source: str) -> None:
    hp = tx.state.players[seat].hp
    lost = min(hp, amount)
    if lost > 0:
        tx.emit(CastleDamaged(seat=seat, amount=lost, hp=hp - lost, source=source))


def count(tx: Decision[TerraloreState]) -> None:
    """Each attacking lane against the opposing defending lane; excess is damage."""
    players = tx.state.players
    attack = tuple(lane_total(p, Lane.ATTACKING) for p in players)
    defense = tuple(lane_total(p, Lane.DEFENDING) for p in players)
    tx.emit(LanesCounted(attack=attack, defense=defense))
    for seat in (0, 1):
        damage(tx, seat, attack[1 - seat] - defense[seat], "combat")


def tie_break_ranks(state: TerraloreState) -> tuple[int, ...]:
    """Castle HP, then field points; equal on both is a draw (shared rank)."""
    return ranks_from_scores([(p.hp, field_points(p)) for p in state.players])


def end_or_next_turn(tx: Decision[TerraloreState]) -> None:
    """After Counting: a castle at 0 ends the game, else the next Draw phase."""
    state = tx.state
    fallen = [s for s, p in enumerate(state.players) if p.hp <= 0]
    if fallen:
        reason = "castle-destroyed" if len(fallen) == 1 else "both-castles-destroyed"
        tx.emit(GameEnded(ranks=tie_break_ranks(state), reason=reason))
        return
    tx.emit(TurnStarted(turn=state.turn + 1))
    draw_phase(tx)


def draw_phase(tx: Decision[TerraloreState]) -> None:
    """Both draw 2; a player who cannot draw both has run out and loses."""
    short = [s for s, p in enumerate(tx.state.players) if len(p.deck) < DRAW_PER_TURN]
    for seat in short:
        tx.emit(DeckRanOut(seat=seat))
    if len(short) == 1:
        ranks = tuple(2 if s == short[0] else 1 for s in (0, 1))
        tx.emit(GameEnded(ranks=ranks, reason="deck-out"))
    elif short:
        tx.emit(GameEnded(ranks=tie_break_ranks(tx.state), reason="both-decks-out"))
    else:
        for seat in (0, 1):
            draw(tx, seat, DRAW_PER_TURN)


def reveal_and_count(tx: Decision[TerraloreState], rng: Rng) -> None:
    """The Reveal and Counting phases of the current turn, then what follows."""
    for seat, p in enumerate(tx.state.players):
        plan = p.plan
        assert plan is not None
        tx.emit(
            PlacementRevealed(
                seat=seat,
                plays=plan.plays,
                discards=plan.discards,
                destroys=plan.destroys,
                nonce=p.nonce,
            )
        )
    decide_reveal_order(tx, rng)
    for ref in tx.state.reveal_order:
        resolve_lane(tx, ref.seat, ref.lane, rng)
    count(tx)
    end_or_next_turn(tx)
