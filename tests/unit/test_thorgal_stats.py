"""Thorgal's statistics hooks on real random games: every draw of the chance
stream is accounted for, with the right number of outcomes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from domain.contract.core import ChanceOutcome, EventFacet, SeatFacet
from domain.games import find_game
from domain.games.thorgal import events as E
from domain.games.thorgal import stats
from domain.games.thorgal.setup import ThorgalSetup
from domain.ledger import simulate
from domain.ledger.simulate import play_random_game

THORGAL = find_game("thorgal")
SEEDS = [
    (seed, 1 + seed % 4) for seed in range(8)
]  # (seed, players): solo to 4 players


class RecordingRng:
    """Delegates to the ledger's RNG and logs every draw the decider asks for."""

    def __init__(self, inner: Any, log: list[tuple[str, int, Any]]) -> None:
        self.inner, self.log = inner, log

    def randbelow(self, n: int) -> int:
        value = self.inner.randbelow(n)
        self.log.append(("randbelow", n, value))
        return value

    def shuffle(self, items: Sequence[Any]) -> tuple[Any, ...]:
        out = self.inner.shuffle(items)
        self.log.append(("shuffle", len(items), out))
        return out

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.log.append(("roll", sides, value))
        return value

    def token(self, nbytes: int = 16) -> bytes:
        self.log.append(("token", nbytes, None))
        return self.inner.token(nbytes)


def recorded_game(monkeypatch: pytest.MonkeyPatch, seed: int, players: int):
    draws: list[tuple[str, int, Any]] = []
    original = simulate.rng_for
    monkeypatch.setattr(
        simulate, "rng_for", lambda *a, **k: RecordingRng(original(*a, **k), draws)
    )
    play = play_random_game(THORGAL, ThorgalSetup(players=players), seed)
    return play, draws


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def test_the_hooks_are_wired_into_the_ruleset():
    assert (THORGAL.facts, THORGAL.event_facets, THORGAL.chance_outcomes) == (
        stats.facts,
        stats.event_facets,
        stats.chance_outcomes,
    )


@pytest.mark.parametrize(("seed", "players"), SEEDS)
def test_every_chance_draw_of_a_random_game_is_reported(monkeypatch, seed, players):
    play, draws = recorded_game(monkeypatch, seed, players)
    seats = play.state.seats
    reported = [o for e in play.events for o in THORGAL.chance_outcomes(e)]
    assert all(0 <= o.value < o.outcomes for o in reported)

    # the opening: first player, then one shuffle per deck
    assert draws[0] == (
        "randbelow",
        seats,
        of(play.events, E.AdventureStarted)[0].first,
    )
    assert all(kind in ("randbelow", "shuffle") for kind, _, _ in draws)

    # every face index drawn for a die is a d6 outcome, except the roll_wound
    # effect's (recorded only as the Wound shape it shows)
    faces = [v for kind, n, v in draws[1:] if kind == "randbelow"]
    assert all(n == 6 for kind, n, _ in draws[1:] if kind == "randbelow")
    wound_rolls = len(of(play.events, E.WoundRolled))
    d6 = [o.value for o in reported if o.distribution == "d6"]
    assert {o.outcomes for o in reported if o.distribution == "d6"} <= {6}
    assert len(d6) + wound_rolls == len(faces)
    assert not Counter(d6) - Counter(faces)
    rolled = [f for e in of(play.events, E.DiceRolled) for f in e.faces] + [
        e.face for e in of(play.events, E.DieRerolled)
    ]
    assert sorted(d6) == sorted(rolled)

    # every shuffle of 2+ cards is reported cell by cell, and the cells give the order back
    shuffles = [out for kind, n, out in draws if kind == "shuffle" and n >= 2]
    by_shuffle = [THORGAL.chance_outcomes(e) for e in of(play.events, E.DeckShuffled)]
    by_shuffle = [cells for cells in by_shuffle if cells]
    assert sum(kind == "shuffle" for kind, _, _ in draws) == len(
        of(play.events, E.DeckShuffled)
    )
    assert (
        len(by_shuffle) == len(shuffles) >= 5
    )  # the opening shuffles of 2+ cards, at least
    for order, cells in zip(shuffles, by_shuffle):
        n = len(order)
        assert [
            (c.distribution.endswith(f"_shuffle:n={n}"), c.outcomes) for c in cells
        ] == [(True, n * n)] * n
        ranked = sorted(order)
        assert tuple(ranked[c.value // n] for c in cells) == order
        assert [c.value % n for c in cells] == list(range(n))
    assert len(reported) == len(d6) + sum(len(o) for o in shuffles)


@pytest.mark.parametrize(("seed", "players"), SEEDS)
def test_facts_and_facets_of_a_random_game(seed, players):
    play = play_random_game(THORGAL, ThorgalSetup(players=players), seed)
    started = of(play.events, E.AdventureStarted)[0]
    facts = THORGAL.facts(play.setup, play.state)
    assert facts.rounds == 1 + len(of(play.events, E.RoundAdvanced)) == play.state.round
    assert facts.first_player is None
    assert facts.seat_facets == tuple(
        SeatFacet(seat=s, key="character", value=c)
        for s, c in enumerate(started.characters)
    )
    assert len(facts.seat_facets) == max(players, 2)

    facets = [f for e in play.events for f in THORGAL.event_facets(e)]
    (first,) = [f for f in facets if f.key == "first_player"]
    passes = len(of(play.events, E.FirstPlayerPassed))
    assert (
        int(first.value) == first.seat
        and (first.seat + passes) % play.state.seats == play.state.first
    )
    chips = [(e.seat, e.card) for e in of(play.events, E.ChipPlaced)]
    assert [(f.seat, f.value) for f in facets if f.key == "action_card"] == chips
    assert [(f.seat, f.value) for f in facets if f.key == "item_used"] == [
        (e.seat, e.item) for e in of(play.events, E.ItemUsed)
    ]
    assert Counter(f.value for f in facets if f.key == "combat") == Counter(
        "won" if e.won else "lost" for e in of(play.events, E.CombatEnded)
    )
    assert {f.key for f in facets} <= {
        "first_player",
        "action_card",
        "item_used",
        "combat",
    }


def test_redacted_and_single_card_shuffles_report_nothing():
    assert (
        THORGAL.chance_outcomes(
            E.DeckShuffled(deck="items", cards=(), size=9, hidden=True)
        )
        == ()
    )
    assert (
        THORGAL.chance_outcomes(
            E.DeckShuffled(deck="enemy_massive", cards=("e7",), size=1)
        )
        == ()
    )
    cells = THORGAL.chance_outcomes(
        E.DeckShuffled(deck="terrain", cards=("t2", "t0", "t1"), size=3)
    )
    # sorted: t0 0, t1 1, t2 2
    assert cells == tuple(
        ChanceOutcome(distribution="terrain_shuffle:n=3", value=v, outcomes=9)
        for v in (2 * 3 + 0, 0 * 3 + 1, 1 * 3 + 2)
    )
    assert THORGAL.chance_outcomes(E.DiceRolled(faces=(0, 5, 5))) == tuple(
        ChanceOutcome(distribution="d6", value=v, outcomes=6) for v in (0, 5, 5)
    )
    assert THORGAL.event_facets(E.CombatEnded(won=True, uncovered=0)) == (
        EventFacet(key="combat", value="won"),
    )
