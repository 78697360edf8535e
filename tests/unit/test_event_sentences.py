"""Every event of every game reads as one sentence, and no sentence leaks.

Two walks: every declared event type (built from its field types, so types a
random game rarely reaches are worded too), and random complete games,
where each event is worded for a spectator and for every seat.  A sentence is
written from the event as redacted for its viewer; the leak check compares
it with what the redaction removed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.contract.core import ADMIN, SPECTATOR, Viewer
from domain.contract.outcomes import Outcome, Termination
from domain.games import all_games, find_game
from domain.ledger.simulate import play_random_game
from domain.words.narration import (
    concluded_sentence,
    created_sentence,
    describe,
    seat_names,
)
from domain.words.sentences import plain_sentence
from tests.support.examples import examples, smallest_and_largest
from tests.support.samples import sample_model

GAMES = all_games()
NAMES = {0: "rita", 1: "sam", 2: "tove", 3: "ulf"}


def viewers(seats: int) -> list[Viewer]:
    return [SPECTATOR, ADMIN, *(Viewer.player(s) for s in range(seats))]


def assert_sentence(text: str, event: Any) -> None:
    assert isinstance(text, str) and text.strip(), event
    assert "\n" not in text and "None" not in text, (text, event)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_declared_event_type_has_its_own_sentence(game):
    assert game.describe is not None, f"{game.name} has no words of its own"
    for event_type in game.event_types:
        event = sample_model(event_type)
        for viewer in viewers(2):
            text = describe(game, event, viewer, NAMES)
            assert_sentence(text, event)
            assert text != plain_sentence(game.redact(event, viewer), NAMES)
        seat = getattr(event, "seat", None)
        if isinstance(seat, int) and not isinstance(seat, bool):
            assert NAMES[seat] in describe(game, event, SPECTATOR, NAMES), event


def test_a_seat_without_a_name_is_counted_from_one():
    game = find_game("thalara")
    event = sample_model(game.events_by_name["Passed"]).model_copy(update={"seat": 0})
    assert describe(game, event, SPECTATOR, {}) == "seat 1 passes."


def test_a_spectator_reads_a_count_and_the_owner_reads_the_cards():
    game = find_game("thalara")
    selected = game.events_by_name["HandSelected"](
        seat=0, cards=("r01@0", "r02@0"), count=2, commitment="c"
    )
    assert describe(game, selected, SPECTATOR, NAMES) == "rita selects 2 cards."
    assert describe(game, selected, Viewer.player(1), NAMES) == "rita selects 2 cards."
    assert (
        describe(game, selected, Viewer.player(0), NAMES)
        == "rita selects r01@0 and r02@0."
    )


_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings(model: Any) -> set[str]:
    return set(_STRINGS.findall(model.model_dump_json()))


def mentions(text: str, token: str) -> bool:
    return re.search(rf"(?<![\w@#]){re.escape(token)}(?![\w@#])", text) is not None


@pytest.mark.parametrize("example", smallest_and_largest())
def test_random_games_word_every_event_and_leak_nothing(example):
    """Per viewer: a sentence for each event, written only from the redacted
    event (wording the full event gives the same words), and naming none of
    the strings the redaction removed."""
    ((game_type, fields),) = examples(example)
    game = find_game(game_type)
    setup = game.setup_model(**fields)
    play = play_random_game(game, setup, seed=7)
    seats = sum(len(held) for held in game.player_seats(setup))
    names = {s: n for s, n in NAMES.items() if s < seats}
    for event in play.events:
        for viewer in [SPECTATOR, *(Viewer.player(s) for s in range(seats))]:
            text = describe(game, event, viewer, names)
            assert_sentence(text, event)
            shown = game.redact(event, viewer)
            assert text == game.describe(shown, viewer, names)
            removed = strings(event) - strings(shown)
            leaked = [t for t in removed if t and mentions(text, t)]
            assert not leaked, (viewer, event, text)


def test_ledger_events_have_sentences():
    game = find_game("thorgal")
    assert seat_names(game, game.setup_model(players=1), ("ann",)) == {
        0: "ann",
        1: "ann",
    }
    assert created_sentence(game, 2, {}) == (
        "A game of Thorgal: The Board Game begins: seat 1 and seat 2."
    )
    won = Outcome(
        termination=Termination.TEAM_WON, ranks=(1, 1), scores=(0, 0), winners=(0, 1)
    )
    assert concluded_sentence(won, {0: "ann", 1: "ann"}).startswith(
        "The game is over: the team wins"
    )
    tie = Outcome(
        termination=Termination.COMPLETED, ranks=(1, 1), scores=(4, 4), winners=(0, 1)
    )
    assert concluded_sentence(tie, NAMES) == (
        "The game is over: rita and sam share the win (scores: rita 4, sam 4);"
        " the seed is revealed."
    )


def test_a_game_without_words_or_board_gets_plain_ones():
    """The defaults of ``Ruleset.describe`` and ``Ruleset.board``."""
    from domain.words.board_html import board
    from tests.games.tictactoe import GAME

    assert GAME.describe is None and GAME.board is None
    play = play_random_game(GAME, GAME.setup_model(players=2), seed=1)
    texts = [describe(GAME, e, SPECTATOR, {0: "ann"}) for e in play.events]
    assert "ann: mark placed (cell " in " ".join(texts)
    fragment = board(GAME, GAME.view(play.state, SPECTATOR), {})
    assert fragment.startswith('<section class="board board-tictactoe">')
