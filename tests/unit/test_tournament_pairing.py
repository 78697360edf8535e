"""Pairings: round robin completeness, Swiss without rematches, FFA grouping, seats."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import InvalidCommandError
from domain.tournament.ffa import ffa_pairing, table_sizes
from domain.tournament.pairing import (
    Pairing,
    meetings,
    round_robin_schedule,
    seat_order,
    swiss_pairing,
)
from domain.tournament.standings import GameResult, compute_standings
from tests.support.sizes import examples


def names(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def assert_each_once(pairing: Pairing, active: list[str]) -> None:
    everyone = [*pairing.seated, *pairing.byes]
    assert sorted(everyone) == sorted(active)


def play_random(
    pairing: Pairing, rnd: random.Random, results: list[GameResult]
) -> None:
    for table in pairing.tables:
        ranks = list(range(1, len(table) + 1))
        rnd.shuffle(ranks)
        if rnd.random() < 0.1:  # an occasional draw / shared place
            ranks = [1 if r <= 2 else r for r in ranks]
        results.append(GameResult(players=table, ranks=tuple(ranks)))


def simulate(players, rounds, pair, seed=0, table_size=2):
    """Play ``rounds`` rounds with seeded random results; return the pairings."""
    rnd = random.Random(seed)
    results: list[GameResult] = []
    byes: list[str] = []
    history: list[tuple[str, ...]] = []
    pairings = []
    for _ in range(rounds):
        rows = compute_standings(players, results, byes, table_size)
        scores = {r.player_id: r.points for r in rows}
        pairing = pair(players, scores, history, byes)
        pairings.append(pairing)
        history.extend(pairing.tables)
        byes.extend(pairing.byes)
        play_random(pairing, rnd, results)
    return pairings


# --------------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9])
def test_round_robin_gives_everyone_every_opponent_exactly_once(n: int) -> None:
    players = names(n)
    schedule = round_robin_schedule(players)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    met = meetings(t for rnd in schedule for t in rnd.tables)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    for pairing in schedule:
        assert_each_once(pairing, players)
        assert len(pairing.byes) == n % 2
    assert Counter(p for r in schedule for p in r.byes) == Counter(
        {p: 1 for p in players} if n % 2 else {}
    )


@pytest.mark.parametrize("n", [4, 5, 6, 8, 10, 16])
def test_round_robin_first_seats_are_balanced(n: int) -> None:
    schedule = round_robin_schedule(names(n))
    firsts = Counter(t[0] for r in schedule for t in r.tables)
    counts = [firsts[p] for p in names(n)]
    assert max(counts) - min(counts) <= (1 if n % 2 == 0 else 2)


def test_round_robin_rejects_duplicate_players() -> None:
    with pytest.raises(InvalidCommandError):
        round_robin_schedule(["a", "a"])


# --------------------------------------------------------------------- Swiss


def test_swiss_avoids_rematches_in_a_6_round_12_player_event() -> None:
    for seed in range(20):
        pairings = simulate(names(12), 6, swiss_pairing, seed=seed)
        met = meetings(t for p in pairings for t in p.tables)
        assert max(met.values()) == 1, f"rematch with seed {seed}"
        for pairing in pairings:
            assert_each_once(pairing, names(12))


def test_swiss_pairs_top_down_by_score_then_seed() -> None:
    pairing = swiss_pairing(list("abcdef"), {"d": 6, "e": 3, "f": 3})
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset("de"),
        frozenset("fa"),
        frozenset("bc"),
    }


def test_swiss_bye_goes_to_lowest_ranked_player_without_one() -> None:
    scores = {"a": 3, "b": 3, "c": 0, "d": 0, "e": 0}
    assert swiss_pairing(list("abcde"), scores).byes == ("e",)
    assert swiss_pairing(list("abcde"), scores, byes=["e"]).byes == ("d",)


def test_swiss_falls_back_to_fewest_rematches_when_unavoidable() -> None:
    history = [("a", "b"), ("c", "d"), ("a", "c"), ("b", "d"), ("a", "d"), ("b", "c")]
    pairing = swiss_pairing(list("abcd"), {}, history + [("a", "b")])
    assert_each_once(pairing, list("abcd"))
    met = meetings(history + [("a", "b")])
    assert sum(met[frozenset(t)] for t in pairing.tables) == 2  # not a-b (twice)


def test_swiss_prefers_another_bye_player_to_a_rematch() -> None:
    # c is lowest but giving c the bye forces a rematch of a-b.
    pairing = swiss_pairing(list("abc"), {"a": 3, "b": 3}, [("a", "b")])
    assert pairing.byes != ("c",)
    assert meetings(pairing.tables)[frozenset("ab")] == 0


# --------------------------------------------------------------------- seats


def test_seat_order_alternates_two_player_colours() -> None:
    history: list[tuple[str, ...]] = []
    for _ in range(4):
        table = seat_order(("a", "b"), history, ["a", "b"])
        history.append(table)
    assert [t[0] for t in history] == ["a", "b", "a", "b"]


def test_seat_order_rotates_first_seat_at_multi_player_tables() -> None:
    history: list[tuple[str, ...]] = []
    for _ in range(4):
        history.append(seat_order("abcd", history, list("abcd")))
    assert sorted(t[0] for t in history) == list("abcd")


# --------------------------------------------------------------------- Swiss-FFA


@pytest.mark.parametrize(
    ("count", "size", "low", "expected"),
    [
        (8, 4, 2, ((4, 4), 0)),
        (9, 4, 2, ((3, 3, 3), 0)),
        (7, 3, 2, ((3, 2, 2), 0)),
        (5, 4, 3, ((4,), 1)),
        (2, 5, 3, ((), 2)),
        (11, 5, 3, ((4, 4, 3), 0)),
    ],
)
def test_table_sizes_are_balanced_and_within_limits(count, size, low, expected) -> None:
    assert table_sizes(count, size, low) == expected


def test_ffa_tables_are_grouped_by_score() -> None:
    players = names(12)
    scores = {p: float(i) for i, p in enumerate(players)}  # p11 best
    pairing = ffa_pairing(players, scores, 4)
    assert [set(t) for t in pairing.tables] == [
        set(players[8:]),
        set(players[4:8]),
        set(players[:4]),
    ]


def test_ffa_byes_go_to_the_lowest_ranked_when_a_table_cannot_be_seated() -> None:
    scores = {"a": 3, "b": 2, "c": 1, "d": 1, "e": 0}
    pairing = ffa_pairing(list("abcde"), scores, 4, min_size=3)
    assert pairing.byes == ("e",)
    assert set(pairing.tables[0]) == set("abcd")
    again = ffa_pairing(list("abcde"), scores, 4, byes=["e"], min_size=3)
    assert again.byes == ("d",)


def test_ffa_avoids_repeated_opponents_when_possible() -> None:
    history = [tuple("abc"), tuple("def"), tuple("ghi")]
    scores = {"a": 2, "b": 1, "d": 2, "e": 1, "g": 2, "h": 1}
    pairing = ffa_pairing(list("abcdefghi"), scores, 3, history)
    assert max(meetings(pairing.tables + tuple(history)).values()) == 1


def test_ffa_event_over_rounds_keeps_sizes_valid() -> None:
    def pair(players, scores, history, byes):
        return ffa_pairing(players, scores, 4, history, byes, min_size=3)

    for pairing in simulate(names(11), 5, pair, seed=3, table_size=4):
        assert_each_once(pairing, names(11))
        assert all(3 <= len(t) <= 4 for t in pairing.tables)


# --------------------------------------------------------------------- properties


@examples(150)
@given(n=st.integers(2, 16), seed=st.integers(0, 10_000), data=st.data())
def test_swiss_seats_each_player_once_and_never_rematches_when_possible(n, seed, data):
    rounds = data.draw(st.integers(1, max(1, n // 2)))
    players = names(n)
    pairings = simulate(players, rounds, swiss_pairing, seed=seed)
    for pairing in pairings:
        assert_each_once(pairing, players)
        assert all(len(t) == 2 for t in pairing.tables)
        assert len(pairing.byes) == n % 2
    met = meetings(t for p in pairings for t in p.tables)
    assert max(met.values(), default=1) == 1
    byes = Counter(p for pairing in pairings for p in pairing.byes)
    assert max(byes.values(), default=1) == 1


@examples(150)
@given(
    n=st.integers(2, 16),
    size=st.integers(3, 5),
    low=st.integers(2, 3),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 10_000),
)
def test_ffa_seats_each_player_once_at_valid_tables(n, size, low, rounds, seed):
    players = names(n)

    def pair(players, scores, history, byes):
        return ffa_pairing(players, scores, size, history, byes, min_size=low)

    for pairing in simulate(players, rounds, pair, seed=seed, table_size=size):
        assert_each_once(pairing, players)
        assert all(low <= len(t) <= size for t in pairing.tables)
        assert len(pairing.byes) == table_sizes(n, size, low)[1]


@given(n=st.integers(0, 16))
def test_round_robin_is_valid_for_any_count(n):
    schedule = round_robin_schedule(names(n))
    met = meetings(t for r in schedule for t in r.tables)
    assert sum(met.values()) == n * (n - 1) // 2 == len(met)
    for pairing in schedule:
        assert_each_once(pairing, names(n))


def test_nobody_sits_first_three_times_running_when_the_other_need_not() -> None:
    """FIDE's colour rule: a third first seat in a row only if both must.

    ``a`` sat first in its last two games, ``b`` alternated; they have sat
    first equally often, so counting first seats alone gave ``a`` the first
    seat a third time.
    """
    history = [
        ("b", "c"), ("d", "f"), ("e", "a"),
        ("f", "b"), ("a", "c"), ("d", "e"),
        ("a", "e"), ("b", "d"), ("f", "c"),
    ]  # fmt: skip
    assert seat_order(("a", "b"), history, list("abcdef")) == ("b", "a")
    # a colour difference of 2 is as binding as two in a row
    assert seat_order(
        ("a", "b"), [("c", "a"), ("a", "d"), ("e", "a"), ("f", "a")], list("abcdef")
    ) == ("a", "b")
