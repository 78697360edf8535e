"""Spell requirements, strength totals and who wins a conflict.

These are pure queries over the state, shared by ``decide`` (validation and
resolution), ``view`` (live totals) and ``legal_commands``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..content import Spell, card_info, spell_of

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from ..state import Conflict, ThalaraState


def find_conflict(state: ThalaraState, artifact: str) -> Conflict | None:
    for conflict in state.conflicts:
        if conflict.artifact == artifact:
            return conflict
    return None


def own_colours(state: ThalaraState, conflict: Conflict, seat: int) -> Counter[str]:
    """Energy per colour of ``seat``'s own live cards (each card is one energy).

    German edition: only one's own cards count toward one's spells.
    """
    return Counter(
        card_info(state, p.card).colour
        for p in conflict.plays
        if p.owner == seat and not p.destroyed
    )


def meets(have: Counter[str], spell: Spell, extra: str | None = None) -> bool:
    """Whether energy ``have``, plus one of colour ``extra`` if given, pays for
    ``spell`` (requirements are a few colours: counting the tuple beats building
    a Counter on the legal-move path)."""
    need = spell.requirement
    return all(
        have[colour] + (colour == extra) >= need.count(colour) for colour in need
    )


def is_requirement_met(
    state: ThalaraState, conflict: Conflict, seat: int, spell: Spell
) -> bool:
    return meets(own_colours(state, conflict, seat), spell)


def targets(
    state: ThalaraState, conflict: Conflict, seat: int, spell: Spell
) -> Iterator[str]:
    """Cards a destroy/return spell cast by ``seat`` may target in ``conflict``."""
    effect = spell.effect
    for p in conflict.plays:
        if p.destroyed:
            continue
        if effect.target == "opponent" and p.owner == seat:
            continue
        if effect.target == "own" and p.owner != seat:
            continue
        if (
            effect.max_strength is not None
            and card_info(state, p.card).strength > effect.max_strength
        ):
            continue
        yield p.card


def totals(state: ThalaraState, conflict: Conflict) -> tuple[int, ...]:
    """Strength per seat: live cards, plus bonuses, minus weakenings (never below 0)."""
    sums = [0] * state.seats
    for p in conflict.plays:
        if not p.destroyed:
            sums[p.owner] += card_info(state, p.card).strength
    for active in conflict.spells:
        effect = spell_of(state, active.spell).effect
        if effect.kind == "bonus":
            sums[active.caster] += effect.amount
        elif effect.kind == "weaken":
            for seat in range(state.seats):
                if seat != active.caster:
                    sums[seat] -= effect.amount
    return tuple(max(0, s) for s in sums)


def contenders(conflict: Conflict) -> tuple[int, ...]:
    """Seats with at least one live (not destroyed) card in the conflict."""
    return tuple(sorted({p.owner for p in conflict.plays if not p.destroyed}))


def winner(sums: Sequence[int], seats: Sequence[int]) -> int | None:
    """The highest total held by exactly one contender, looking past tied groups.

    2 players: a tie means nobody wins.  3-4 players: a tie passes the
    Artifact to the next-highest total; if that is tied too (or there is
    none) the search goes on, and nobody wins when every group is tied.

    >>> winner([5, 5, 3], [0, 1, 2])
    2
    >>> winner([5, 5, 0], [0, 1])
    >>> winner([4, 4, 2, 2], [0, 1, 2, 3])
    >>> winner([1, 7], [0, 1])
    1
    """
    for total in sorted({sums[s] for s in seats}, reverse=True):
        holders = [s for s in seats if sums[s] == total]
        if len(holders) == 1:
            return holders[0]
    return None
