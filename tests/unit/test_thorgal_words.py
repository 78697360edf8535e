"""Thorgal's table reads in the rulebook's words, not the engine's fields.

``goods 1, 1, 0, 0, 0 and 0``, ``slot -1`` and ``tasks: op after_items``
were the board a person got; each part of the view now has the rulebook's
sentence (:mod:`domain.games.thorgal.table_words`).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.contract.core import SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_text import board_lines

THORGAL = find_game("thorgal")
ENGINE = re.compile(
    r"\bgoods \d|\bslot\b|\bop \w|(?<!threat )-1\b|\bcells\b|\bassigned \d"
)


@pytest.mark.parametrize("example", [e.name for e in THORGAL.examples])
def test_the_board_in_words_has_no_engine_fields(example: str) -> None:
    setup = THORGAL.setup_model(**THORGAL.example(example).setup)
    play = play_random_game(THORGAL, setup, seed=7)
    step = max(1, len(play.states) // 15)
    seen_hero = False
    for state in play.states[1::step]:
        for viewer in (SPECTATOR, Viewer.player(0)):
            lines = board_lines(THORGAL.view(state, viewer), {0: "rita"})
            text = "\n".join(lines)
            assert not ENGINE.search(text), ENGINE.search(text)
            seen_hero |= bool(re.search(r"rita · \w+: in the \w+.*\n +Goods: ", text))
    assert seen_hero


LOG_ENGINE = re.compile(
    r"\bcells? \d|\bslot\b|\bchip \d|item item|\bturn 0\b|answers \w+ with|\bop \w"
)


@pytest.mark.parametrize("example", [e.name for e in THORGAL.examples])
def test_the_log_reads_in_the_rulebook_s_words(example: str) -> None:
    from domain.words.narration import describe

    setup = THORGAL.setup_model(**THORGAL.example(example).setup)
    play = play_random_game(THORGAL, setup, seed=7)
    for event in play.events:
        text = describe(THORGAL, event, SPECTATOR, {0: "rita"})
        assert not LOG_ENGINE.search(text), (text, event)


def test_an_answer_reads_as_its_sentence() -> None:
    from domain.games.thorgal.rules import options as O
    from domain.words.narration import describe

    events: Any = THORGAL.events_by_name
    took = events["ChoiceMade"](seat=0, kind="craft", option=O.take_item("chisel"))
    assert describe(THORGAL, took, SPECTATOR, {0: "rita"}) == (
        "rita chooses: take the Chisel from the Item Display."
    )
    placed = events["ChipPlaced"](seat=1, chip=0, slot=3, card="C09", option=1)
    assert describe(THORGAL, placed, SPECTATOR, {}) == (
        "seat 2 places an Action chip below Action card 9 (Sacrifice 2)."
    )


def test_the_view_s_own_fields_read_in_words() -> None:
    """``field_text`` (what a board in words can label each field with)."""
    from domain.words.sentences import field_text, fields_words

    setup = THORGAL.setup_model(**THORGAL.example("thorgal-2p").setup)
    play = play_random_game(THORGAL, setup, seed=7)
    first = next(s for s in play.states if s.phase == "action")
    view = THORGAL.view(first, Viewer.player(0))
    assert field_text(view, "row", {}).startswith("Action Row: Action card 2 (Move 1)")
    assert field_text(view, "turn", {}) == "turn 1"
    assert field_text(view, "reason", {}) == ""  # the setup's bookkeeping
    assert field_text(view, "tasks", {}) == ""
    text = fields_words(view, {})
    assert "Item Display: the " in text and not ENGINE.search(text)
