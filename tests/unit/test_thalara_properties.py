"""Thalara: random complete games (Hypothesis) and the invariants they must keep.

Each example plays a whole game with ``domain.ledger.simulate.play_random_game`` and
checks: cards conserved in every state, scores recomputed from the final
state and from the event log, replay equals live, proto round trips, no view
or redacted event leaking a hidden card or the stack order, and a sample of
``legal_commands`` all accepted by ``decide``.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import ADMIN, SPECTATOR, Viewer
from domain.games.thalara import GAME
from domain.games.thalara import events as ev
from domain.games.thalara.content import catalogue
from domain.games.thalara.setup import ThalaraSetup
from domain.games.thalara.state import Mode, ThalaraState
from domain.games.thalara.view import ThalaraView
from domain.ledger.simulate import Playthrough, play_random_game, rng_for
from tests.support.contract import (
    assert_proto_contract,
    assert_replay_equals_live,
    assert_round_trips,
)
from tests.support.sizes import examples
from tests.unit.test_thalara_support import CHARACTERS

SEEDS = st.binary(min_size=32, max_size=32)


def test_the_proto_twin_matches_every_model() -> None:
    assert_proto_contract(GAME)


# ------------------------------------------------------------------ invariants


def zones(state: ThalaraState) -> Counter[str]:
    """How often each card id appears across all places it can be."""
    places: Counter[str] = Counter(state.stack)
    for p in state.players:
        places.update(p.supply)
        places.update(p.hand)
        places.update(p.discard)
    for c in state.conflicts:
        places[c.artifact] += 1
        places.update(play.card for play in c.plays)
    return places


def assert_cards_conserved(state: ThalaraState) -> None:
    cards = catalogue(state.content, state.seats)
    assert zones(state) == Counter(cards.keys())
    for seat, p in enumerate(state.players):
        played = {x.card for c in state.conflicts for x in c.plays if x.owner == seat}
        assert set(p.won) <= set(p.hand) | played
        assert len(set(p.won)) == len(p.won)
        assert all(
            cards[c].owner in (seat, None) for c in (*p.supply, *p.hand, *p.discard)
        )


def assert_scores_recomputed(play: Playthrough) -> None:
    state = play.state
    cards = catalogue(state.content, state.seats)
    from_state = tuple(
        sum(cards[a].victory_points for a in p.won) for p in state.players
    )
    from_log = [0] * state.seats
    for event in play.events:
        if isinstance(event, ev.ConflictResolved) and event.winner is not None:
            from_log[event.winner] += cards[event.conflict].victory_points
    assert state.scores == from_state == tuple(from_log)
    assert (
        isinstance(play.events[-1], ev.GameEnded)
        and play.events[-1].scores == state.scores
    )
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == state.scores
    assert outcome.winners == tuple(
        s for s, v in enumerate(state.scores) if v == max(state.scores)
    )


_STRING = re.compile(r'"([^"\\]*)"')


def card_ids(model: Any, known: frozenset[str]) -> set[str]:
    """Card ids anywhere in ``model`` (its JSON strings that name a card)."""
    return set(_STRING.findall(model.model_dump_json())) & known


def assert_nothing_leaks(play: Playthrough, check_views_every: int = 1) -> None:
    """No non-admin viewer ever sees another seat's hidden cards or the stack order."""
    state0 = play.states[0]
    known = frozenset(catalogue(state0.content, state0.seats))
    viewers = [SPECTATOR, *(Viewer.player(s) for s in range(state0.seats))]
    public: set[str] = set()
    index = 0
    for step, (_, _, events) in enumerate(play.decisions):
        for event in events:
            index += 1
            state = play.states[index]
            if isinstance(event, ev.CardPlayed):
                public.add(event.card)
            elif isinstance(event, ev.ArtifactsRefilled):
                public.update(event.artifacts)
            for viewer in viewers:
                shown = GAME.redact(event, viewer)
                if hasattr(shown, "order"):
                    assert shown.order == ()
                assert not card_ids(shown, known) & secret(state, viewer, public)
        if step % check_views_every == 0 or step == len(play.decisions) - 1:
            for viewer in viewers:
                view = GAME.view(state, viewer)
                assert isinstance(view, ThalaraView)
                assert view.stack == () and view.stack_size == len(state.stack)
                assert not card_ids(view, known) & secret(state, viewer, public)


def secret(state: ThalaraState, viewer: Viewer, public: set[str]) -> set[str]:
    hidden = set(state.stack)
    for seat, p in enumerate(state.players):
        if not viewer.can_see(seat):
            hidden.update(p.hand)
            hidden.update(p.supply)
    return hidden - public


def assert_legal_commands_decide(
    play: Playthrough, rnd: random.Random, samples: int = 2
) -> None:
    """Every command generated in a few sampled positions is accepted."""
    for _ in range(samples):
        index = rnd.randrange(len(play.states) - 1)
        state = play.states[index]
        for seat in GAME.to_act(state):
            commands = itertools.islice(GAME.legal_commands(state, seat), 150)
            for command in commands:
                assert GAME.decide(state, command, seat, rng_for(b"\0" * 32, 2 + index))


def check_game(
    setup: ThalaraSetup, seed: bytes, *, views_every: int = 1
) -> Playthrough:
    play = play_random_game(GAME, setup, seed)
    assert GAME.is_over(play.state)
    for state in play.states[1:]:
        assert_cards_conserved(state)
    assert_scores_recomputed(play)
    assert_replay_equals_live(play)
    assert_round_trips(play)
    assert_nothing_leaks(play, views_every)
    assert_legal_commands_decide(play, random.Random(seed))
    return play


# ------------------------------------------------------------------ games


@examples(300)
@given(seed=SEEDS, characters=st.permutations(CHARACTERS))
def test_random_standard_two_player_games_keep_every_invariant(
    seed: bytes, characters: list[str]
) -> None:
    check_game(
        ThalaraSetup(players=2, mode="standard", characters=tuple(characters[:2])), seed
    )


@examples(300)
@given(seed=SEEDS, characters=st.permutations(CHARACTERS))
def test_random_casual_chaos_two_player_games_keep_every_invariant(
    seed: bytes, characters: list[str]
) -> None:
    check_game(
        ThalaraSetup(players=2, mode="casual_chaos", characters=tuple(characters[:2])),
        seed,
    )


@examples(300)
@given(
    seed=SEEDS,
    mode=st.sampled_from(["standard", "casual_chaos"]),
    characters=st.lists(st.sampled_from(CHARACTERS), min_size=3, max_size=3).filter(
        lambda cs: max(Counter(cs).values()) <= 2
    ),
)
def test_random_three_player_games_keep_every_invariant(
    seed: bytes, mode: Mode, characters: list[str]
) -> None:
    check_game(
        ThalaraSetup(players=3, mode=mode, characters=tuple(characters)),
        seed,
        views_every=2,
    )


@examples(300)
@given(
    seed=SEEDS,
    mode=st.sampled_from(["standard", "casual_chaos"]),
    characters=st.permutations(CHARACTERS),
)
def test_random_four_player_games_keep_every_invariant(
    seed: bytes, mode: Mode, characters: list[str]
) -> None:
    check_game(
        ThalaraSetup(players=4, mode=mode, characters=tuple(characters)),
        seed,
        views_every=3,
    )


def test_the_admin_sees_everything_a_player_sees_of_their_own_seat() -> None:
    play = play_random_game(GAME, ThalaraSetup(mode="casual_chaos"), 7)
    for state in play.states[1::10]:
        admin = GAME.view(state, ADMIN)
        assert isinstance(admin, ThalaraView)
        for seat in range(state.seats):
            own = GAME.view(state, Viewer.player(seat))
            assert isinstance(own, ThalaraView)
            assert admin.players[seat] == own.players[seat]


def plays_by_evolving(state: ThalaraState, seat: int) -> list[Any]:
    """The play phase's commands as the rules define them: each card on each
    conflict, then the spells the state *after* that play would allow."""
    from domain.games.thalara.commands import Pass, PlayCard
    from domain.games.thalara.evolve import evolve
    from domain.games.thalara.rules.moves import spell_options

    out: list[Any] = [Pass()]
    for card in state.players[seat].hand:
        for conflict in state.conflicts:
            out.append(PlayCard(card=card, conflict=conflict.artifact))
            after = evolve(
                state, ev.CardPlayed(seat=seat, card=card, conflict=conflict.artifact)
            )
            out += [
                PlayCard(card=card, conflict=conflict.artifact, spell=spell)
                for spell in spell_options(after, seat)
            ]
    return out


@examples(40)
@given(
    seed=SEEDS,
    players=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(["standard", "casual_chaos"]),
)
def test_the_play_phase_list_equals_evolving_every_play(
    seed: bytes, players: int, mode: Mode
) -> None:
    """The legal list finds a play's spells from energies counted once per
    list (``PlaySpells``), not from a whole evolved state per play: the two
    must give the same commands in the same order."""
    from domain.games.thalara.rules.moves import legal_commands
    from domain.games.thalara.state import PLAY

    setup = ThalaraSetup(players=players, mode=mode, characters=CHARACTERS[:players])
    checked = 0
    for state in play_random_game(GAME, setup, seed).states:
        for seat in GAME.to_act(state) if state.phase == PLAY else ():
            assert list(legal_commands(state, seat)) == plays_by_evolving(state, seat)
            checked += 1
    assert checked, "no play-phase state was checked"
