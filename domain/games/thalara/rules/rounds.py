"""The round lifecycle: opening shuffles, start of a round, end of a round, scoring.

``decide`` threads the state through the events it emits (a small
:class:`~domain.games.kit.Decision`), so that later decisions in the same step (who draws how many,
whether the game ends) see the effect of earlier events, exactly as a replay
would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.games.kit import Decision

from .. import events as ev
from ..content import (
    HAND_SIZE,
    WIN_ARTIFACTS,
    card_info,
    catalogue,
    conflict_count,
)
from ..evolve import evolve
from ..state import (
    CASUAL_CHAOS,
    RETURN,
    PlayerState,
    ThalaraState,
)
from .spells import contenders, totals, winner

if TYPE_CHECKING:
    from domain.contract.core import Event, Rng

REASON_ARTIFACTS = "a player has won seven or more Artifacts"
REASON_SUPPLY = "a player's supply cannot fill their hand"
REASON_NO_CONFLICTS = "no Artifacts are left to fight over"


def start(state: ThalaraState, rng: Rng) -> list[Event]:
    """Shuffle the Artifacts, pick the first player, reveal conflicts, begin round 1."""
    log = Decision(state, evolve)
    artifacts = sorted(
        c.id
        for c in catalogue(state.content, state.seats).values()
        if c.kind == "artifact"
    )
    order = tuple(rng.shuffle(artifacts))
    log.emit(ev.ArtifactsShuffled(order=order, size=len(order)))
    log.emit(ev.FirstPlayerChosen(seat=rng.randbelow(state.seats)))
    refill(log)
    begin_round(log, rng)
    return log.events


def refill(log: Decision[ThalaraState]) -> None:
    """Reveal Artifacts until the conflict count is reached or the stack is empty."""
    s = log.state
    missing = conflict_count(s.seats) - len(s.conflicts)
    take = s.stack[: max(0, missing)]
    if take:
        log.emit(ev.ArtifactsRefilled(artifacts=take))


def hand_need(player: PlayerState) -> int:
    """Cards to select/draw so the hand holds seven, Artifacts included."""
    return max(0, HAND_SIZE - len(player.hand))


def end_reason(state: ThalaraState) -> str:
    """Why the game ends at the start of this round ('' when it goes on)."""
    if any(len(p.won) >= WIN_ARTIFACTS for p in state.players):
        return REASON_ARTIFACTS
    if any(len(p.supply) < hand_need(p) for p in state.players):
        return REASON_SUPPLY
    if not state.conflicts:
        return REASON_NO_CONFLICTS
    return ""


def scores(state: ThalaraState) -> tuple[int, ...]:
    """Victory points of each seat's collected Artifacts."""
    return tuple(
        sum(card_info(state, a).victory_points for a in p.won) for p in state.players
    )


def begin_round(log: Decision[ThalaraState], rng: Rng) -> None:
    """Check both end conditions, then start the next round (drawing in Casual Chaos)."""
    s = log.state
    reason = end_reason(s)
    if reason:
        log.emit(ev.GameEnded(reason=reason, scores=scores(s)))
        return
    starter = s.last_player if s.last_player is not None else s.starter
    log.emit(ev.RoundStarted(round=s.round + 1, starter=starter))
    if s.mode != CASUAL_CHAOS:
        return
    for seat in range(s.seats):
        player = log.state.players[seat]
        order = tuple(rng.shuffle(player.supply))
        log.emit(ev.SupplyShuffled(seat=seat, order=order, size=len(order)))
        need = hand_need(player)
        if need:
            log.emit(ev.CardsDrawn(seat=seat, cards=order[:need], count=need))


def end_round(log: Decision[ThalaraState], rng: Rng) -> None:
    """Everyone passed: resolve every conflict, clean up, refill, go on."""
    s = log.state
    for conflict in s.conflicts:
        sums = totals(s, conflict)
        log.emit(
            ev.ConflictResolved(
                conflict=conflict.artifact,
                totals=sums,
                winner=winner(sums, contenders(conflict)),
            )
        )
    log.emit(ev.RoundEnded(round=s.round))
    refill(log)
    # The Artifact end condition does not depend on Casual Chaos returns, so
    # nobody is asked to choose when the game is over anyway.
    if log.state.phase != RETURN or end_reason(log.state) == REASON_ARTIFACTS:
        begin_round(log, rng)
