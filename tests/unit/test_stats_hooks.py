"""The shared parts of the games' stats hooks: one table per hook, seat labels in seat order."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from domain.contract.facts import SeatFacet
from domain.games import all_games
from domain.games.stats_hooks import ByEvent, seat_facts
from domain.ledger.simulate import play_random_game
from tests.support.examples import examples, smallest_and_largest


class Rolled(BaseModel):
    face: int


class Passed(BaseModel):
    seat: int


def test_a_table_answers_its_own_events_and_nothing_else():
    hook = ByEvent[int]({Rolled: lambda e: (e.face,)})
    assert hook.events == (Rolled,)
    assert hook(Rolled(face=4)) == (4,)
    assert hook(Passed(seat=0)) == ()


def test_seat_facts_label_each_seat_in_order_with_no_first_player():
    facts = seat_facts(3, [{"clan": "a", "mode": "m"}, {"clan": "b", "mode": "m"}])
    assert facts.rounds == 3 and facts.first_player is None
    assert facts.seat_facets == (
        SeatFacet(seat=0, key="clan", value="a"),
        SeatFacet(seat=0, key="mode", value="m"),
        SeatFacet(seat=1, key="clan", value="b"),
        SeatFacet(seat=1, key="mode", value="m"),
    )


@pytest.mark.parametrize("example", smallest_and_largest())
def test_every_chance_draw_is_in_an_event_the_game_declares_as_chance(example):
    """The fairness view reads only ``chance_events``: a draw elsewhere is lost."""
    ((game_type, fields),) = examples(example)
    game = next(g for g in all_games() if g.name == game_type)
    assert game.chance_outcomes is not None and game.chance_events
    play = play_random_game(game, game.setup_model(**fields), seed=3)
    drawn = {type(e) for e in play.events if game.chance_outcomes(e)}
    assert drawn and drawn <= set(game.chance_events)
