"""Legal moves as sized, indexable sequences: same moves, same order, no enumeration."""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.contract.sequences import Chain, Combinations, Mapped
from domain.games import find_game
from domain.games.thalara.setup import ThalaraSetup
from domain.games.thalara.state import PLAY, RETURN
from domain.ledger.simulate import play_random_game
from tests.unit.test_thalara_support import new_table

THALARA = find_game("thalara")


@settings(max_examples=40)
@given(n=st.integers(0, 9), k=st.integers(0, 10))
def test_combinations_index_exactly_like_itertools(n, k):
    items = [f"c{i}" for i in range(n)]
    seq = Combinations(items, k)
    assert list(seq) == list(itertools.combinations(items, k))
    assert len(seq) == sum(1 for _ in itertools.combinations(items, k))


def test_slices_negative_indices_and_bounds():
    seq = Chain([Mapped(Combinations("abcd", k), "".join) for k in range(5)])
    assert len(seq) == 16
    assert seq[0] == "" and seq[-1] == "abcd" and seq[5:8] == ["ab", "ac", "ad"]
    with pytest.raises(IndexError):
        seq[16]


def test_the_opening_selection_is_77520_hands_indexed_without_enumeration():
    state = new_table()
    seq = THALARA.legal_moves(state, 0)
    assert len(seq) == 77520
    assert seq[:50] == list(itertools.islice(THALARA.legal_commands(state, 0), 50))
    assert seq[-50:] == list(deque(THALARA.legal_commands(state, 0), maxlen=50))
    middle = 77520 // 2
    assert seq[middle : middle + 3] == list(
        itertools.islice(THALARA.legal_commands(state, 0), middle, middle + 3)
    )


@pytest.mark.parametrize("mode", ["standard", "casual_chaos"])
def test_every_listed_sequence_equals_the_generator_through_a_game(mode):
    play = play_random_game(
        THALARA, ThalaraSetup(players=2, mode=mode), seed=5, max_decisions=400
    )
    checked = set()
    for state in play.states[::3]:
        if state.phase not in (PLAY, RETURN):
            continue  # selections are checked above (77,520 each)
        for seat in THALARA.to_act(state):
            assert list(THALARA.legal_moves(state, seat)) == list(
                THALARA.legal_commands(state, seat)
            )
            checked.add(state.phase)
    assert PLAY in checked
    if mode == "casual_chaos":
        assert RETURN in checked


def test_a_game_without_a_sequence_lists_its_moves_as_a_tuple():
    from domain.ledger.simulate import begin

    terralore = find_game("terralore")
    play = begin(terralore, terralore.setup_model(), b"seed")
    seat = terralore.to_act(play.state)[0]
    moves = terralore.legal_moves(play.state, seat)
    assert isinstance(moves, tuple) and moves
    assert moves == tuple(terralore.legal_commands(play.state, seat))


@settings(max_examples=60)
@given(
    n=st.integers(0, 8),
    start=st.integers(-5, 300),
    stop=st.integers(-5, 300),
    step=st.sampled_from([None, 1, 2, -1]),
)
def test_any_slice_of_a_chain_of_combinations_is_the_list_slice(n, start, stop, step):
    items = [f"c{i}" for i in range(n)]
    seq = Chain([Mapped(Combinations(items, k), "-".join) for k in range(n + 1)])
    whole = [
        "-".join(c) for k in range(n + 1) for c in itertools.combinations(items, k)
    ]
    assert seq[start:stop:step] == whole[start:stop:step]


def test_the_doctests_hold():
    import doctest

    import domain.contract.sequences

    assert doctest.testmod(domain.contract.sequences).failed == 0
