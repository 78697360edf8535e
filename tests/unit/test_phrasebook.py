"""A game's sentences as a table: templates checked when written, one sentence per event."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from domain.contract.core import SPECTATOR, Viewer
from domain.words.phrasebook import Phrasebook, Who
from domain.words.sentences import Names, seat_name, worded_as


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


class Drawn(BaseModel):
    seat: int
    cards: tuple[str, ...]
    count: int
    order: tuple[str, ...] = ()
    index: int = 0
    kind: str = "first_player"


class Answered(BaseModel):
    drawn: Drawn
    scores: tuple[int, ...]


def hide_cards(event: BaseModel, viewer: Viewer) -> BaseModel:
    if isinstance(event, Drawn) and not viewer.can_see(event.seat):
        return event.model_copy(update={"cards": (), "order": ()})
    return event


def test_a_template_reads_a_field_in_one_of_the_shared_ways():
    say = Phrasebook(
        "t",
        hide_cards,
        {
            Drawn: "{seat} draws {cards:or count card} ({cards:count card}),"
            " {kind:words} {index:from 1}, shuffled{order:shown}.",
            Answered: "{drawn.seat} answers: {scores:each}; {scores:each as}.",
        },
    )
    drawn = Drawn(seat=0, cards=("a1", "a2"), count=2, order=("x", "y"), index=2)
    assert say(drawn, Viewer.player(0), {0: "rita"}) == (
        "rita draws a1 and a2 (2 cards), first player 3, shuffled: x and y."
    )
    assert say(drawn, SPECTATOR, {0: "rita"}) == (
        "rita draws 2 cards (0 cards), first player 3, shuffled."
    )
    answered = Answered(drawn=drawn, scores=(1, 2))
    assert say(answered, SPECTATOR, {1: "sam"}) == (
        "seat 1 answers: seat 1 1, sam 2; seat 1 as 1, sam as 2."
    )


@pytest.mark.parametrize(
    ("event_type", "template"),
    [
        (Drawn, "{seat:loudly}"),
        (Drawn, "{cards:count}"),
        (Drawn, "{cards:or total card}"),
        (Drawn, "{cards:or count}"),
        (Drawn, "{seat!r}"),
        (Answered, "{drawn.player}"),
        (Answered, "{scores.seat}"),
    ],
)
def test_a_way_or_a_field_of_a_field_that_is_not_there_fails_when_built(
    event_type, template
):
    with pytest.raises(ValueError, match="not a field of the event or a way"):
        Phrasebook("t", hide_cards, {event_type: template})


class Discarded(BaseModel):
    card: str
    source: str = ""
    rolls: tuple[int, ...] = ()


def test_words_in_brackets_show_only_when_their_fields_say_something():
    say = Phrasebook(
        "t",
        hide_order,
        {Discarded: "{card} goes[ from the {source}][, rolls {rolls}]."},
    )
    assert say(Discarded(card="a1"), SPECTATOR, {}) == "a1 goes."
    assert say(Discarded(card="a1", source="hand", rolls=(3, 5)), SPECTATOR, {}) == (
        "a1 goes from the hand, rolls 3 and 5."
    )
    for lone in ("{card} goes[ from {source}.", "{card} goes] away.", "[[{card}]]"):
        with pytest.raises(ValueError, match="lone bracket"):
            Phrasebook("t", hide_order, {Discarded: lone})


def test_a_template_reads_a_field_in_one_of_the_games_own_ways():
    say = Phrasebook(
        "t",
        hide_order,
        {Discarded: "{card:loud} goes[ from the {source:loud}]."},
        {"loud": str.upper},
    )
    assert say(Discarded(card="a1"), SPECTATOR, {}) == "A1 goes."
    assert say(Discarded(card="a1", source="hand"), SPECTATOR, {}) == (
        "A1 goes from the HAND."
    )
    with pytest.raises(ValueError, match="loud"):
        Phrasebook("t", hide_order, {Discarded: "{card:loud} goes."})


def test_a_games_own_way_cannot_take_a_shared_ways_name():
    with pytest.raises(ValueError, match="shared ways"):
        Phrasebook("t", hide_order, {Discarded: "{card} goes."}, {"count": str})


class Pledge(BaseModel):
    seat: int
    amount: int


@worded_as(Pledge)
def _pledge_words(pledge: Pledge, names: Names) -> str:
    return f"{seat_name(names, pledge.seat)} pledges {pledge.amount}"


class Stake(BaseModel):
    amount: int


class Pledged(BaseModel):
    pledge: Pledge
    stake: Stake


def test_a_model_field_reads_in_its_games_words_else_as_its_fields():
    say = Phrasebook("t", hide_order, {Pledged: "{pledge} ({stake})."})
    event = Pledged(pledge=Pledge(seat=1, amount=3), stake=Stake(amount=3))
    assert say(event, SPECTATOR, {1: "sam"}) == "sam pledges 3 (amount 3)."
