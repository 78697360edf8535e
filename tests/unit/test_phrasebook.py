"""A game's sentences as a table: templates checked when written, one sentence per event."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from domain.contract.core import SPECTATOR, Viewer
from domain.words.phrasebook import Phrasebook, Who


class CardsPassed(BaseModel):
    seat: int
    to: int
    cards: tuple[str, ...]


class Shuffled(BaseModel):
    order: tuple[str, ...]


def hide_order(event: BaseModel, viewer: Viewer) -> BaseModel:
    if isinstance(event, Shuffled) and viewer == SPECTATOR:
        return Shuffled(order=())
    return event


def test_a_template_names_seats_and_lists_cards():
    say = Phrasebook("t", hide_order, {CardsPassed: "{seat} passes {cards}."})
    event = CardsPassed(seat=1, to=0, cards=("a1", "a2"))
    assert say(event, SPECTATOR, {1: "sam"}) == "sam passes a1 and a2."
    assert say(event, SPECTATOR, {}) == "seat 2 passes a1 and a2."


def test_a_function_is_written_from_the_redacted_event():
    say = Phrasebook(
        "t", hide_order, {Shuffled: lambda e, who: f"shuffled: {len(e.order)}"}
    )
    event = Shuffled(order=("a", "b"))
    assert say(event, SPECTATOR, {}) == "shuffled: 0"
    assert say(event, Viewer.player(0), {}) == "shuffled: 2"


def test_a_template_naming_a_missing_field_fails_when_the_table_is_built():
    with pytest.raises(ValueError, match="player"):
        Phrasebook("t", hide_order, {CardsPassed: "{player} passes {cards}."})
    with pytest.raises(ValueError):
        Phrasebook("t", hide_order, {CardsPassed: "{} passes."})


def test_an_event_without_a_sentence_is_a_type_error():
    say = Phrasebook("t", hide_order, {CardsPassed: "{seat} passes."})
    with pytest.raises(TypeError, match="Shuffled"):
        say(Shuffled(order=()), SPECTATOR, {})


def test_one_event_cannot_have_two_sentences():
    say = Phrasebook("t", hide_order, {CardsPassed: "{seat} passes."})
    with pytest.raises(ValueError, match="two sentences"):
        say.on(CardsPassed)(lambda e, who: "again")


def test_who_names_each_seat_with_its_value():
    assert Who({0: "rita"}).each((3, 5)) == "rita 3, seat 2 5"
    assert Who({}).each(("x",), " as ") == "seat 1 as x"
