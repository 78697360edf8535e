"""Who acts, every legal command (lazily), a random legal command, the outcome.

Hand selection is "choose k of up to 20" (77,520 hands in round 1), so
``legal_commands`` is a generator and bots use ``random_command``, which
samples without enumerating.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from domain.contract.core import Outcome, Termination, ranks_from_scores
from domain.contract.sequences import Chain, Combinations, Mapped

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

    from domain.contract.core import Command


def to_act(state: ThalaraState) -> tuple[int, ...]:
    if state.phase in (SELECT, RETURN):
        return tuple(s for s, p in enumerate(state.players) if not p.ready)
    if state.phase == PLAY and state.current is not None:
        return (state.current,)
    return ()


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


def spell_options(state: ThalaraState, seat: int) -> Iterator[SpellActivation]:
    """Every spell activation ``seat`` may make in ``state`` (card already played)."""
    player = state.players[seat]
    energy: dict[str, Counter[str]] = {}  # per conflict, computed once for every spell
    for spell_def in characters(state.content)[player.character].spells:
        if spell_def.id in player.spells_used:
            continue
        spell = spell_of(state, spell_def.id)
        for conflict in state.conflicts:
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


class PlaySpells:
    """For each play ``seat`` could make, the spells :func:`spell_options` would
    list in the state after it, found without building that state.

    Why: the play phase's legal list asks this of every card in hand on every
    conflict, and asking :func:`spell_options` each time re-counted every
    conflict's energy and re-checked every spell against it (1.6 million
    requirement checks for 5,766 lists).  A play changes one thing a spell
    reads: its own conflict gains the card (one more energy of its colour,
    one more possible target).  So every conflict's energy and every spell's
    verdict on it are computed once per list, the played conflict's verdict
    once per colour, and the played conflict itself only when a targeted
    spell needs its cards.
    """

    def __init__(self, state: ThalaraState, seat: int) -> None:
        self.state, self.seat = state, seat
        player = state.players[seat]
        self.spells = [
            spell_of(state, spell_def.id)
            for spell_def in characters(state.content)[player.character].spells
            if spell_def.id not in player.spells_used
        ]
        self.energy = {c.artifact: own_colours(state, c, seat) for c in state.conflicts}
        self.met = {
            (spell.id, artifact): meets(have, spell)
            for spell in self.spells
            for artifact, have in self.energy.items()
        }
        self.met_with: dict[tuple[str, str, str], bool] = {}

    def _met_with(self, spell: Any, artifact: str, colour: str) -> bool:
        """Whether ``spell`` is paid for at ``artifact`` with one more ``colour``."""
        if self.met[(spell.id, artifact)]:
            return True  # more energy never unpays a spell
        need = spell.requirement
        if colour not in need:
            return False
        key = (spell.id, artifact, colour)
        met = self.met_with.get(key)
        if met is None:
            met = self.met_with[key] = meets(self.energy[artifact], spell, colour)
        return met

    def after(self, card: str, artifact: str) -> Iterator[SpellActivation]:
        """The spells once ``card`` is played to ``artifact``, in ``spell_options``' order."""
        state, seat = self.state, self.seat
        colour = card_info(state, card).colour
        played: Conflict | None = None
        for spell in self.spells:
            for conflict in state.conflicts:
                here = conflict.artifact == artifact
                if not (
                    self._met_with(spell, artifact, colour)
                    if here
                    else self.met[(spell.id, conflict.artifact)]
                ):
                    continue
                if not spell.effect.is_targeted:
                    yield SpellActivation(spell=spell.id, conflict=conflict.artifact)
                    continue
                if here:
                    if played is None:
                        played = _conflict_after(state, artifact, card, seat)
                    conflict = played
                for target in targets(state, conflict, seat, spell):
                    yield SpellActivation(
                        spell=spell.id, conflict=conflict.artifact, target=target
                    )


def _conflict_after(
    state: ThalaraState, artifact: str, card: str, seat: int
) -> Conflict:
    for conflict in conflicts_with_play(state, artifact, card, seat):
        if conflict.artifact == artifact:
            return conflict
    raise ValueError(f"no conflict at {artifact}")


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
        spells = PlaySpells(state, seat)
        for card in player.hand:
            for conflict in state.conflicts:
                yield PlayCard(card=card, conflict=conflict.artifact)
                for spell in spells.after(card, conflict.artifact):
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
