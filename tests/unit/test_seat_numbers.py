"""One rule for seats in words: a name, else "seat N" counted from 1.

The API keeps 0-based seat numbers; every text for people (replay
sentences, outcome reasons, who recorded an ending, the board in words,
the moves) names seats through :func:`domain.words.sentences.seat_name`.
Two checks: every text of random games of every declared example says no
"seat 0" and leaves no seat field as a bare number; and planted events
where seat 0 acts read "seat 1" (or its player's name).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.contract.core import ADMIN, SPECTATOR, Viewer
from domain.contract.outcomes import Outcome, Termination
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_text import board_lines
from domain.words.narration import (
    by_words,
    concluded_sentence,
    describe,
    ledger_sentence,
    outcome_reason,
    seats_in_words,
)
from domain.words.sentences import SEAT_FIELDS, seat_name, words
from tests.support.examples import every_example_id, examples

ZERO = re.compile(r"\bseats? 0\b|\bseat -\d")
NAMED_SEATS = (
    "current",
    "caster",
    "starter",
    "first",
    "winner",
    "owner",
    "last player",
)
BARE = re.compile(r"\b(" + "|".join(NAMED_SEATS) + r") -?\d")
"""A seat field shown as its bare number (``current 1``, ``caster 0``)."""


def check(text: str, where: Any) -> None:
    assert not ZERO.search(text), (text, where)
    assert not BARE.search(text), (text, where)


@pytest.mark.parametrize("example", every_example_id())
def test_no_text_of_a_random_game_counts_seats_from_zero(example: str) -> None:
    ((game_type, fields),) = examples(example)
    game = find_game(game_type)
    setup = game.setup_model(**fields)
    play = play_random_game(game, setup, seed=7)
    seats = sum(len(held) for held in game.player_seats(setup))
    viewers = [SPECTATOR, ADMIN, *(Viewer.player(s) for s in range(seats))]
    for event in play.events:
        for viewer in viewers:
            check(describe(game, event, viewer, {}), event)
    step = max(1, len(play.states) // 10)
    for state in play.states[::step]:
        for viewer in viewers:
            for line in board_lines(game.view(state, viewer), {}):
                check(line, (viewer, state))
    outcome = game.outcome(play.state)
    assert outcome is not None
    check(concluded_sentence(outcome, {}), outcome)
    check(outcome_reason(outcome, {}), outcome)


def test_every_named_seat_field_is_read_as_a_seat() -> None:
    assert {f.replace(" ", "_") for f in NAMED_SEATS} <= SEAT_FIELDS
    assert all(words(f) == f for f in SEAT_FIELDS if "_" not in f)


def test_seat_zero_reads_as_seat_one_or_its_name() -> None:
    thalara = find_game("thalara")
    events: Any = thalara.events_by_name
    passed = events["Passed"](seat=0)
    assert describe(thalara, passed, SPECTATOR, {}) == "seat 1 passes."
    assert describe(thalara, passed, SPECTATOR, {0: "rita"}) == "rita passes."
    started = events["RoundStarted"](round=2, starter=0)
    assert "seat 1 starts" in describe(thalara, started, SPECTATOR, {})

    thorgal = find_game("thorgal")
    thorgal_events: Any = thorgal.events_by_name
    died = thorgal_events["AdventureEnded"](
        won=False, reason="a character died: seat 0 could not place a Wound"
    )
    assert "seat 1 could not place a Wound" in describe(thorgal, died, SPECTATOR, {})

    assert ledger_sentence("timed_out", 0, "seat:1", {}) == (
        "seat 1 runs out of time (seat 2 records it)."
    )
    assert by_words("seat:0", {0: "rita"}) == "rita"
    assert seat_name({}, -1) == "nobody"  # a model's "no seat yet"
    resigned = Outcome(
        termination=Termination.RESIGNED,
        ranks=(2, 1),
        scores=(0, 0),
        winners=(1,),
        reason="seat 0 resigned",
    )
    assert outcome_reason(resigned, {}) == "seat 1 resigned"
    assert outcome_reason(resigned, {0: "rita"}) == "rita resigned"
    assert seats_in_words("no seat showed up (seats 0, 1)", {}) == (
        "no seat showed up (seat 1 and seat 2)"
    )


def test_a_reason_a_person_wrote_is_shown_as_written() -> None:
    ruled = Outcome(
        termination=Termination.ADJUDICATED,
        ranks=(1, 2),
        scores=(0, 0),
        winners=(0,),
        reason="seat 2 never came",
    )
    assert outcome_reason(ruled, {}) == "seat 2 never came"


def test_the_board_in_words_names_the_seats_of_a_view() -> None:
    """``current 1``, ``caster 0`` and ``starter seat 2`` in one line, for one
    seat, was the board ``ledger play`` printed."""
    thalara = find_game("thalara")
    play = play_random_game(
        thalara, thalara.setup_model(**thalara.examples[0].setup), seed=3
    )
    state = next(
        s
        for s in play.states
        if s.current is not None and any(c.spells for c in s.conflicts)
    )
    lines = board_lines(thalara.view(state, Viewer.player(0)), {0: "rita", 1: "sam"})
    text = "\n".join(lines)
    assert f"to act: {('rita', 'sam')[state.current]}" in text
    assert re.search(r"cast by (rita|sam)", text), text
    assert not re.search(r"\bseat [0-9]", text), text  # every seat has a name here
