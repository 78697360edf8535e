"""``Model.model_copy`` (the fast shallow copy) holds what pydantic's copy holds,
and models given the same fields share one fields set.

Every ruleset's ``evolve`` copies through it, and the golden corpus replays
byte-identically through it; this pins the parts the corpus cannot see: the
fields set (``exclude_unset`` dumps), frozenness, and that the original is
untouched.
"""

from __future__ import annotations

import pydantic
import pytest
from pydantic import BaseModel

from domain.contract.messages import Model
from domain.games import all_games
from domain.ledger.simulate import play_random_game


class Seat(Model):
    score: int = 0
    hand: tuple[str, ...] = ()


class Table(Model):
    seats: tuple[Seat, ...]
    turn: int = 0


def _same(ours: BaseModel, theirs: BaseModel) -> None:
    assert type(ours) is type(theirs)
    assert ours.__dict__ == theirs.__dict__
    assert ours.model_fields_set == theirs.model_fields_set
    assert ours.__pydantic_extra__ == theirs.__pydantic_extra__
    assert ours.__pydantic_private__ == theirs.__pydantic_private__
    assert ours.model_dump(exclude_unset=True) == theirs.model_dump(exclude_unset=True)


@pytest.mark.parametrize(
    "update",
    [None, {}, {"turn": 3}, {"seats": (Seat(score=1),)}, {"turn": 1, "seats": ()}],
)
def test_a_copy_equals_pydantics(update) -> None:
    table = Table(seats=(Seat(hand=("a",)), Seat()))
    ours = table.model_copy(update=update)
    _same(ours, BaseModel.model_copy(table, update=update))
    assert ours is not table
    assert table.turn == 0 and len(table.seats) == 2  # the original is untouched
    with pytest.raises(pydantic.ValidationError):
        ours.turn = 9  # still frozen


def test_a_deep_copy_is_still_deep() -> None:
    table = Table(seats=(Seat(hand=("a",)),))
    deep = table.model_copy(deep=True)
    assert deep == table
    assert deep.seats[0] is not table.seats[0]


def test_every_games_states_copy_as_pydantic_would() -> None:
    for game in all_games():
        example = game.examples[0]
        played = play_random_game(game, game.setup_model(**example.setup), 3)
        for state in played.states[:: max(1, len(played.states) // 20)]:
            _same(state.model_copy(), BaseModel.model_copy(state))
            first = next(iter(type(state).model_fields))
            change = {first: getattr(state, first)}
            _same(
                state.model_copy(update=change),
                BaseModel.model_copy(state, update=change),
            )


def test_a_copy_shares_the_fields_set_unless_it_sets_a_field_left_unset() -> None:
    table = Table(seats=(), turn=2)
    moved = table.model_copy(update={"turn": 3})
    assert moved.model_fields_set is table.model_fields_set
    plain = Table(seats=())
    seated = plain.model_copy(update={"turn": 1})
    assert seated.model_fields_set == {"seats", "turn"}
    assert plain.model_fields_set == {"seats"}  # the original's set is untouched


def test_models_given_the_same_fields_share_one_fields_set() -> None:
    one, two = Seat(score=1), Seat(score=2)
    assert one.model_fields_set is two.model_fields_set
    assert Seat(hand=("a",)).model_fields_set == {"hand"}
    assert Seat().model_fields_set == set()
    assert two.model_dump(exclude_unset=True) == {"score": 2}


def test_a_mutable_model_keeps_a_fields_set_of_its_own() -> None:
    class Note(Model):
        model_config = pydantic.ConfigDict(frozen=False)
        text: str = ""
        seen: bool = False

    one, two = Note(text="a"), Note(text="b")
    one.seen = True  # pydantic adds an assigned field to the instance's set
    assert two.model_fields_set == {"text"}
    assert two.model_dump(exclude_unset=True) == {"text": "b"}
