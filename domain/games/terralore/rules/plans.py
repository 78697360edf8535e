"""Checking, enumerating and sampling placements (``PlaceCards``).

A plan's meaning does not depend on how the client orders ``discards`` or
``destroys``, nor on the relative order of plays in different lanes, but the
order of plays *within a lane* fixes which creature is older there.  So
:func:`canonical` keeps plays grouped in the order given and sorts the
set-like fields; :func:`generate_plans` yields each distinct plan once, in
hand order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, permutations, product
from typing import TYPE_CHECKING

from domain.contract.core import IllegalCommandError, InvalidCommandError

from .. import content
from ..commands import Lane, PlaceCards, Play

if TYPE_CHECKING:
    from ..state import PlayerState

LANE_LIMIT = 4
LANES = (Lane.DEFENDING, Lane.ATTACKING)


def parse_plan(player: PlayerState, cmd: PlaceCards) -> PlaceCards:
    """Validate ``cmd`` against ``player``'s hand and field; return it canonical.

    :raises InvalidCommandError: unknown card, a card listed twice.
    :raises IllegalCommandError: card not in hand, wrong cost payment, wrong
        room-making destroys.
    """
    used = [p.card for p in cmd.plays] + list(cmd.discards)
    for card_id in used + list(cmd.destroys):
        content.card(card_id)
    if len(set(used)) != len(used) or len(set(cmd.destroys)) != len(cmd.destroys):
        raise InvalidCommandError("a card is listed twice in the placement")
    if not set(used) <= set(player.hand):
        raise IllegalCommandError(
            "terralore.not-in-hand",
            "every played or discarded card must be in your hand",
        )
    cost = sum(content.card(p.card).cost for p in cmd.plays)
    if cost != len(cmd.discards):
        raise IllegalCommandError(
            "terralore.cost",
            f"the played cards cost {cost}: discard exactly {cost} other cards",
        )
    on_field = set(player.defending) | set(player.attacking)
    if not set(cmd.destroys) <= on_field:
        raise IllegalCommandError(
            "terralore.destroy-target",
            "you can only destroy your own creatures on the field",
        )
    for lane in LANES:
        need = room_needed(player, lane, cmd.plays)
        got = sum(1 for c in cmd.destroys if c in player.lane(lane))
        if got != need:
            raise IllegalCommandError(
                "terralore.lane-full",
                f"your {lane.value} lane holds at most {LANE_LIMIT} creatures: "
                f"destroy exactly {need} of yours there to make room",
            )
    return canonical(player, cmd)


def room_needed(
    player: PlayerState, lane: Lane, plays: tuple[Play, ...] | list[Play]
) -> int:
    """How many of the lane's creatures must be destroyed for the new ones.

    May exceed what is in the lane (more than 4 new creatures): then no plan fits.
    """
    new = sum(1 for p in plays if p.lane is lane and content.card(p.card).is_creature)
    return max(0, len(player.lane(lane)) + new - LANE_LIMIT)


def canonical(player: PlayerState, cmd: PlaceCards) -> PlaceCards:
    hand_pos = {c: i for i, c in enumerate(player.hand)}
    field = player.defending + player.attacking
    plays = tuple(p for lane in LANES for p in cmd.plays if p.lane is lane)
    return PlaceCards(
        plays=plays,
        discards=tuple(sorted(cmd.discards, key=hand_pos.__getitem__)),
        destroys=tuple(c for c in field if c in set(cmd.destroys)),
    )


def generate_plans(player: PlayerState) -> Iterator[PlaceCards]:
    """Every distinct legal plan, lazily, the empty plan first.

    Discards and destroys come in hand/lane order; plays are grouped by lane
    (defending first) in every order within a lane.

    Why the cards' costs, kinds and plays are looked up once before the loop:
    a hand of seven is 2,187 assignments of cards to lanes, most of them
    unaffordable, and a ``ListLegalMoves`` lists them all on the event loop.
    What :func:`room_needed` and the cost check decide per assignment is
    decided here from those lookups, the same way.
    """
    hand = player.hand
    lanes = [player.lane(lane) for lane in LANES]
    sizes = [len(cards) for cards in lanes]
    cards = [content.card(c) for c in hand]
    costs = [card.cost for card in cards]
    creatures = [card.is_creature for card in cards]
    plays_of = [tuple(Play(card=c, lane=lane) for lane in LANES) for c in hand]
    for assign in product((None, 0, 1), repeat=len(hand)):
        by_lane: tuple[list[Play], list[Play]] = ([], [])
        rest = []
        cost = 0
        new = [0, 0]
        for i, lane in enumerate(assign):
            if lane is None:
                rest.append(hand[i])
                continue
            cost += costs[i]
            new[lane] += creatures[i]
            by_lane[lane].append(plays_of[i][lane])
        needs = [max(0, size + n - LANE_LIMIT) for size, n in zip(sizes, new)]
        if cost > len(rest) or needs[0] > sizes[0] or needs[1] > sizes[1]:
            continue
        for discards, d_def, d_att, p_def, p_att in product(
            combinations(rest, cost),
            combinations(lanes[0], needs[0]),
            combinations(lanes[1], needs[1]),
            permutations(by_lane[0]),
            permutations(by_lane[1]),
        ):
            yield PlaceCards(
                plays=p_def + p_att, discards=discards, destroys=d_def + d_att
            )


def random_plan(player: PlayerState, rnd: random.Random) -> PlaceCards:
    """A random legal plan, biased toward playing something."""
    hand = list(player.hand)
    rnd.shuffle(hand)
    keen = rnd.random()
    plays = [Play(card=c, lane=rnd.choice(LANES)) for c in hand if rnd.random() < keen]
    while plays:
        cost = sum(content.card(p.card).cost for p in plays)
        too_many = any(
            room_needed(player, l, plays) > len(player.lane(l)) for l in LANES
        )
        if cost <= len(hand) - len(plays) and not too_many:
            break
        plays.pop(rnd.randrange(len(plays)))
    played = {p.card for p in plays}
    rest = [c for c in hand if c not in played]
    discards = rnd.sample(rest, sum(content.card(p.card).cost for p in plays))
    destroys: list[str] = []
    for lane in LANES:
        destroys += rnd.sample(
            list(player.lane(lane)), room_needed(player, lane, plays)
        )
    return canonical(
        player,
        PlaceCards(
            plays=tuple(plays), discards=tuple(discards), destroys=tuple(destroys)
        ),
    )
