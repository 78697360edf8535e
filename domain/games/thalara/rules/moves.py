"""Who acts, every legal command (lazily), a random legal command, the outcome.

Hand selection is "choose k of up to 20" (77,520 hands in round 1), so
``legal_commands`` is a generator and bots use ``random_command``, which
samples without enumerating.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from domain.core import Outcome, Termination, ranks_from_scores
from domain.sequences import Chain, Combinations, Mapped

from .. import events as ev
from ..commands import (
    Pass,
    PlayCard,
    ReturnRemnants,
    SelectHand,
    SpellActivation,
)
from ..content import card_info, characters, spell_of
from ..evolve import conflicts_with_play, evolve
from ..state import OVER, PLAY, RETURN, SELECT, Conflict, ThalaraState
from .rounds import hand_need
from .spells import meets, own_colours, targets

if TYPE_CHECKING:
    import random
    from collections import Counter
    from collections.abc import Iterator, Sequence

    from domain.core import Command


def to_act(state: ThalaraState) -> tuple[int, ...]:
    if state.phase in (SELECT, RETURN):
        return tuple(s for s, p in enumerate(state.players) if not p.ready)
    if state.phase == PLAY and state.current is not None:
        return (state.current,)
    return ()


def is_over(state: ThalaraState) -> bool:
    return state.phase == OVER


def outcome(state: ThalaraState) -> Outcome | None:
    """Most victory points wins; equal points share the place (a draw)."""
    if state.phase != OVER:
        return None
    ranks = ranks_from_scores(state.scores)
    return Outcome(
        termination=Termination.COMPLETED,
        ranks=ranks,
        scores=state.scores,
        winners=tuple(s for s, r in enumerate(ranks) if r == 1),
        reason=state.end_reason,
    )


def _remnants_in_hand(state: ThalaraState, seat: int) -> tuple[str, ...]:
    return tuple(
        c for c in state.players[seat].hand if card_info(state, c).kind == "remnant"
    )


def spell_options(
    state: ThalaraState, seat: int, conflicts: tuple[Conflict, ...] | None = None
) -> Iterator[SpellActivation]:
    """Every spell activation ``seat`` may make in ``state`` (card already played).

    ``conflicts``: the conflicts as a play would leave them
    (:func:`conflicts_with_play`), when the state itself is before the play.
    Spells read nothing else a play changes, so the legal-move list need not
    evolve a whole state per card and conflict to find them.
    """
    player = state.players[seat]
    energy: dict[str, Counter[str]] = {}  # per conflict, computed once for every spell
    for spell_def in characters(state.content)[player.character].spells:
        if spell_def.id in player.spells_used:
            continue
        spell = spell_of(state, spell_def.id)
        for conflict in state.conflicts if conflicts is None else conflicts:
            have = energy.get(conflict.artifact)
            if have is None:
                have = energy[conflict.artifact] = own_colours(state, conflict, seat)
            if not meets(have, spell):
                continue
            if spell.effect.is_targeted:
                for target in targets(state, conflict, seat, spell):
                    yield SpellActivation(
                        spell=spell.id, conflict=conflict.artifact, target=target
                    )
            else:
                yield SpellActivation(spell=spell.id, conflict=conflict.artifact)


def legal_commands(state: ThalaraState, seat: int) -> Iterator[Command]:
    """Every command ``seat`` may submit now, generated lazily."""
    if seat not in to_act(state):
        return
    player = state.players[seat]
    if state.phase == SELECT:
        for cards in itertools.combinations(sorted(player.supply), hand_need(player)):
            yield SelectHand(cards=cards)
    elif state.phase == RETURN:
        remnants = sorted(_remnants_in_hand(state, seat))
        for k in range(len(remnants) + 1):
            for cards in itertools.combinations(remnants, k):
                yield ReturnRemnants(cards=cards)
    elif state.phase == PLAY:
        yield Pass()
        for card in player.hand:
            for conflict in state.conflicts:
                yield PlayCard(card=card, conflict=conflict.artifact)
                played = conflicts_with_play(state, conflict.artifact, card, seat)
                for spell in spell_options(state, seat, played):
                    yield PlayCard(card=card, conflict=conflict.artifact, spell=spell)


def _select(cards: tuple[str, ...]) -> SelectHand:
    return SelectHand(cards=cards)


def _return(cards: tuple[str, ...]) -> ReturnRemnants:
    return ReturnRemnants(cards=cards)


def legal_sequence(state: ThalaraState, seat: int) -> Sequence[Command]:
    """``legal_commands`` as a sized, indexable sequence, in the same order.

    Hand selection and the Remnant return are combinations, indexed without
    being enumerated; the play phase's list is small and built.
    """
    if seat not in to_act(state):
        return ()
    player = state.players[seat]
    if state.phase == SELECT:
        return Mapped(Combinations(sorted(player.supply), hand_need(player)), _select)
    if state.phase == RETURN:
        remnants = sorted(_remnants_in_hand(state, seat))
        return Chain(
            [
                Mapped(Combinations(remnants, k), _return)
                for k in range(len(remnants) + 1)
            ]
        )
    return tuple(legal_commands(state, seat))


def random_command(
    state: ThalaraState, seat: int, rnd: random.Random
) -> Command | None:
    """A random legal command without enumerating hand selections.

    Plays are favoured over passing (a pass comes with probability 1/8 while
    cards remain) so simulated rounds look like real ones and games end.
    """
    if seat not in to_act(state):
        return None
    player = state.players[seat]
    if state.phase == SELECT:
        return SelectHand(
            cards=tuple(sorted(rnd.sample(sorted(player.supply), hand_need(player))))
        )
    if state.phase == RETURN:
        remnants = sorted(_remnants_in_hand(state, seat))
        return ReturnRemnants(cards=tuple(c for c in remnants if rnd.random() < 0.5))
    if not player.hand or rnd.random() < 0.125:
        return Pass()
    card = rnd.choice(player.hand)
    conflict = rnd.choice(state.conflicts).artifact
    if rnd.random() < 0.5:
        after = evolve(state, ev.CardPlayed(seat=seat, card=card, conflict=conflict))
        options = list(spell_options(after, seat))
        if options:
            return PlayCard(card=card, conflict=conflict, spell=rnd.choice(options))
    return PlayCard(card=card, conflict=conflict)
