"""Unfulfilled board effects: no Location qualifies, or no Enemy token to upgrade.

Each is resolved as far as possible (nothing), then every character gains 1
Wound (``I1``), placed by its owner.  Hand-made positions, one per token kind.
"""

from __future__ import annotations

import pytest

from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.state import Task
from tests.unit.test_thorgal_choices import then
from tests.unit.test_thorgal_rules import do, fresh, opts


def board(state, **update):
    """Every Location's tokens changed by ``update``."""
    return state.model_copy(
        update={"sites": tuple(s.model_copy(update=update) for s in state.sites)}
    )


def wounds_everyone(state) -> None:
    """Each character in turn is asked to place a 1-cell Wound, then play goes on."""
    for seat in range(len(state.heroes)):
        assert state.pending.kind == "place_wound" and state.pending.seat == seat
        assert opts(state) == ("I1",)
        before = state.hero(seat).wounds
        state, ev = do(state, next(iter(GAME.legal_commands(state, seat))), seat)
        assert [e.seat for e in ev if isinstance(e, E.WoundPlaced)] == [seat]
        assert len(state.hero(seat).wounds) == len(before) + 1
    assert state.pending is None  # every Wound placed, nothing more is asked


@pytest.mark.parametrize(
    ("op", "arg", "full"),
    [
        ("place_enemy", "minor", {"blockade": True}),  # no Location free of a Blockade
        ("place_enemy", "mystical", {"entry_token": True}),  # every Location spent
        ("blockade", "", {"blockade": True}),
        ("cost_token", "", {"entry_token": True}),
        ("sacrifice_cover", "", {"cover": True}),
    ],
)
def test_a_token_with_no_qualifying_location_wounds_every_character(op, arg, full):
    s = board(fresh(), **full)
    sites = s.sites
    s = then(s, Task(op=op, arg=arg, n=1, seat=0))
    assert s.sites == sites  # resolved as far as possible: nothing placed
    wounds_everyone(s)


def test_a_token_with_a_qualifying_location_wounds_nobody():
    s = board(fresh(), cover=True)
    s = s.model_copy(
        update={
            "sites": tuple(
                x.model_copy(update={"cover": x.id != "gate"}) for x in s.sites
            )
        }
    )
    s = then(s, Task(op="sacrifice_cover", n=1, seat=0))
    assert s.pending.kind == "token_cover" and opts(s) == ("loc:gate",)


def test_upgrading_with_no_enemy_token_wounds_every_character():
    s = board(fresh(), enemies=())
    s = then(s, Task(op="upgrade", n=1, seat=0))
    assert all(not x.enemies for x in s.sites)
    wounds_everyone(s)


def test_mystical_tokens_are_not_upgraded_so_only_mystical_is_unfulfilled():
    s = board(fresh(), enemies=("mystical",))
    s = then(s, Task(op="upgrade", n=1, seat=0))
    wounds_everyone(s)


def test_degrading_with_no_enemy_token_does_nothing():
    before = board(fresh(), enemies=())
    s = then(before, Task(op="degrade", n=1, seat=0))
    assert s.pending is None  # no Wound to place: degrading is not unfulfilled
    assert s.sites == before.sites and s.heroes == before.heroes


def test_an_event_placing_an_enemy_nowhere_wounds_every_character():
    s = fresh()
    deck = s.deck("warrior").model_copy(
        update={
            "cards": ("W1",) + tuple(c for c in s.deck("warrior").cards if c != "W1")
        }
    )
    s = board(s, blockade=True).model_copy(
        update={"decks": tuple(deck if d.name == "warrior" else d for d in s.decks)}
    )
    s = then(
        s,
        *(Task(op="threat", n=1, seat=h) for h in (0, 1, 1)),
        Task(op="draw_event", seat=0),
    )
    assert s.active_event == "W1"  # Raid: place 1 Minor enemy
    wounds_everyone(s)


def test_placing_two_tokens_asks_twice_and_wounds_when_the_second_has_no_place():
    s = board(fresh(), blockade=True)
    s = s.model_copy(
        update={
            "sites": tuple(
                x.model_copy(update={"blockade": x.id not in ("gate",)})
                for x in s.sites
            )
        }
    )
    s = then(s, Task(op="blockade", n=2, seat=0))
    assert s.pending.kind == "token_blockade" and opts(s) == ("loc:gate",)
    s, events = do(s, next(iter(GAME.legal_commands(s, 0))), 0)
    assert [e.location for e in events if isinstance(e, E.LocationMarked)] == ["gate"]
    wounds_everyone(s)  # the second Blockade found no Location: unfulfilled


def test_placing_two_enemies_places_both():
    s = then(fresh(), Task(op="place_enemy", arg="minor", n=2, seat=0))
    placed = []
    for _ in range(2):
        assert s.pending.kind == "place_enemy"
        s, events = do(s, next(iter(GAME.legal_commands(s, 0))), 0)
        placed += [e.location for e in events if isinstance(e, E.EnemiesChanged)]
    assert len(placed) == 2
    assert s.pending is None  # both placed, nothing more is asked
