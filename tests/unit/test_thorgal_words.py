"""Thorgal's table reads in the rulebook's words, not the engine's fields.

``goods 1, 1, 0, 0, 0 and 0``, ``slot -1`` and ``tasks: op after_items``
were the board a person got; each part of the view now has the rulebook's
sentence (:mod:`domain.games.thorgal.table_words`).
"""

from __future__ import annotations

import re

import pytest

from domain.contract.core import SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_text import board_lines

THORGAL = find_game("thorgal")
ENGINE = re.compile(r"\bgoods \d|\bslot\b|\bop \w|-1\b|\bcells\b|\bassigned \d")


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
            seen_hero |= bool(re.search(r"\(rita\) in the \w+; Goods: ", text))
    assert seen_hero
