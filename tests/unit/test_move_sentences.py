"""Every legal move of every game reads as a sentence, from the chooser's view only.

Random games of every declared example are stopped at several points; at
each, every legal move of every seat to act (the first few hundred of a
combinatorial list) is worded from that seat's own view.  A sentence must
be a sentence (no command field dumped as ``(card r05@1, ...)``, no
0-based seat), tell the moves of one list apart, and name nothing the
seat's view does not show.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.contract.core import Viewer
from domain.games import all_games, find_game
from domain.ledger.simulate import play_random_game
from domain.words.move_words import move_sentence, plain_move
from domain.words.sentences import words
from tests.support.examples import every_example_id, examples

GAMES = [
    g for g in all_games() if g.name in ("thalara", "vaalbara", "terralore", "thorgal")
]
NAMES = {0: "rita", 1: "sam", 2: "tove", 3: "ulf", 4: "vera"}
POINTS = 12
"""States looked at per game (spread over the whole game)."""
MOVES = 300
"""Legal moves worded per seat and state (Thalara's hands run to tens of thousands)."""

_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings(model: Any) -> set[str]:
    return set(_STRINGS.findall(model.model_dump_json()))


def _plain(text: str) -> str:
    return re.sub(r"[-_]", " ", text).casefold()


def mentions(text: str, token: str) -> bool:
    """Whether ``text`` names ``token`` as a word (``wolf_den`` as "Wolf Den")."""
    pattern = rf"(?<![\w@#]){re.escape(_plain(token))}(?![\w@#])"
    return re.search(pattern, _plain(text)) is not None


def raw_fields(command: Any) -> list[str]:
    """The ways a command's own field names would show in a field dump."""
    out = []
    for model in _models(command):
        for name in type(model).model_fields:
            out += [f"({words(name)} ", f", {words(name)} ", f"{words(name)}="]
    return out


def _models(model: Any) -> list[Any]:
    found = [model]
    for name in type(model).model_fields:
        value = getattr(model, name)
        if hasattr(type(value), "model_fields"):
            found += _models(value)
    return found


def points(example: str) -> list[tuple[Any, Any, Any]]:
    ((game_type, fields),) = examples(example)
    game = find_game(game_type)
    setup = game.setup_model(**fields)
    play = play_random_game(game, setup, seed=7)
    live = [s for s in play.states if not game.is_over(s)]
    step = max(1, len(live) // POINTS)
    return [(game, setup, state) for state in live[::step]]


@pytest.mark.parametrize("example", every_example_id())
def test_every_legal_move_reads_as_a_sentence_from_its_seat_s_view(example):
    for game, _, state in points(example):
        if game.name not in {g.name for g in GAMES}:
            continue
        for seat in game.to_act(state):
            view = game.view(state, Viewer.player(seat))
            hidden = {s for s in strings(state) - strings(view) if len(s) > 2}
            moves = game.legal_moves(state, seat)
            texts = []
            for command in moves[:MOVES]:
                text = move_sentence(game, command, seat, view, NAMES)
                texts.append(text)
                assert text.strip() and "\n" not in text, command
                assert "None" not in text and "seat 0" not in text, (text, command)
                assert text != plain_move(command, seat, NAMES), (text, command)
                dumped = [f for f in raw_fields(command) if f in text]
                assert not dumped, (text, command, dumped)
                leaked = [h for h in hidden if mentions(text, h)]
                assert not leaked, (seat, text, command, leaked)
            repeated = {t for t in texts if texts.count(t) > 1}
            assert not repeated, (example, seat, sorted(repeated)[:3])


def test_every_game_here_words_its_own_moves():
    assert len(GAMES) == 4
    for game in GAMES:
        assert game.describe_move is not None, game.name


def test_the_issue_s_moves_read_as_the_rulebook_does():
    """``play card (card r05@1, conflict a13)`` and Thorgal's ``take action
    (chip 0, slot 3, option 1)`` / ``take item item chisel`` read as sentences."""
    thalara = find_game("thalara")
    table = play_random_game(
        thalara, thalara.setup_model(**thalara.examples[0].setup), seed=1
    )
    view = thalara.view(table.states[0], Viewer.player(1))
    play = thalara.commands_by_name["PlayCard"](card="r05@1", conflict="a13")
    assert move_sentence(thalara, play, 1, view, NAMES) == (
        "play r05 (strength 5, red) in the conflict over a13"
    )

    thorgal = find_game("thorgal")
    table = play_random_game(
        thorgal, thorgal.setup_model(**thorgal.examples[1].setup), seed=1
    )
    state = next(s for s in table.states if s.phase == "action" and s.pending is None)
    seat = state.turn_seat()
    view = thorgal.view(state, Viewer.player(seat))
    take = next(
        c for c in thorgal.legal_commands(state, seat) if getattr(c, "slot", 0) == 1
    )
    text = move_sentence(thorgal, take, seat, view, NAMES)
    assert re.fullmatch(
        r"Collect 2 \(Action card 5\): place (an Action chip from beside the Action"
        r" Row|the Action chip from below Action card \d+) there",
        text,
    ), text


def test_thorgal_words_every_answer_a_question_can_take():
    from domain.games.thorgal.commands import Option
    from domain.games.thorgal.move_words import ANSWERS

    assert set(ANSWERS) == set(Option.model_fields)


def test_a_game_without_move_words_gets_plain_ones():
    from tests.games.tictactoe import GAME

    assert GAME.describe_move is None
    table = play_random_game(GAME, GAME.setup_model(players=2), seed=1)
    state = table.states[1]
    seat = GAME.to_act(state)[0]
    command = next(iter(GAME.legal_commands(state, seat)))
    view = GAME.view(state, Viewer.player(seat))
    text = move_sentence(GAME, command, seat, view, {})
    assert text.startswith("place: cell ")


def test_thorgal_words_the_questions_random_games_rarely_ask():
    """Each question kind with the answers the rules offer it, on a real table."""
    from domain.games.thorgal.move_words import answer_words
    from domain.games.thorgal.rules import options as O
    from domain.games.thorgal.state import Pending

    thorgal = find_game("thorgal")
    table = play_random_game(
        thorgal, thorgal.setup_model(**thorgal.examples[1].setup), seed=7
    )
    state = table.states[len(table.states) // 3]
    view = thorgal.view(state, Viewer.player(0))
    site = next(s.id for s in view.sites if s.enemies)
    asked = {
        "plot": ("E1", [O.pick_side_plot(0), O.pick_side_plot(1), O.PROCEED]),
        "swap": ("A04", [O.swap_action_card("A04"), O.PROCEED]),
        "enemy_order": ("", [O.pick_enemy_card("N1")]),
        "upgrade_die": ("", [O.upgrade_die(0), O.PROCEED]),
        "cost_good": ("smithy", [O.pick_good("ore")]),
        "degrade": ("", [O.pick_enemy(site, 0)]),
        "upgrade": ("", [O.pick_enemy(site, 0)]),
        "token_cost": ("", [O.pick_location("smithy")]),
        "token_cover": ("", [O.pick_location("well")]),
        "discard_collect": ("", [O.discard_collect_tokens(0), O.PROCEED]),
        "after_item": ("craft", [O.use_item("chisel"), O.PROCEED]),
        "pick_item": ("", [O.take_item("chisel"), O.PROCEED]),
        "consent": ("ore", [O.AGREE, O.REFUSE]),
        "pay_from": ("magic", [O.pick_payer(0), O.pick_payer(1), O.CANCEL]),
        "combat_mod": ("", [O.reroll_die(0), O.activate_critical(1), O.SKILL]),
        "prepare": ("", [O.REFRESH, O.use_item("bow"), O.PROCEED]),
    }
    for kind, (arg, options) in asked.items():
        pending = Pending(kind=kind, seat=0, options=tuple(options), arg=arg, n=1)
        shown = view.model_copy(update={"pending": pending})
        texts = [answer_words(shown, option, 0) for option in options]
        assert len(set(texts)) == len(texts), (kind, texts)
        for text, option in zip(texts, options, strict=True):
            assert text and "None" not in text and "_" not in text, (kind, text)
            dumped = [f for f in raw_fields(option) if f in text]
            assert not dumped, (kind, text)
    plot = Pending(kind="plot", seat=0, options=(O.pick_side_plot(0),), arg="E1")
    assert (
        answer_words(view.model_copy(update={"pending": plot}), O.pick_side_plot(0), 0)
        == "spend 1 Gossip to follow the Side Plot “Ask for supplies”"
    )


def test_a_failing_wording_falls_back_to_plain_words_in_the_api(caplog):
    import dataclasses
    from types import SimpleNamespace

    from services.api import legal_pages

    def broken(command, seat, view, names):
        raise KeyError("no such card")

    game = find_game("vaalbara")
    table = play_random_game(game, game.setup_model(**game.examples[0].setup), seed=2)
    state = next(s for s in table.states if game.to_act(s))
    seat = game.to_act(state)[0]
    moves = list(game.legal_moves(state, seat))[:3]
    held = SimpleNamespace(
        ruleset=dataclasses.replace(game, describe_move=broken),
        state=state,
        setup=table.setup,
        player_ids=(),
    )
    assert legal_pages.sentences(held, seat, moves) == [
        plain_move(m, seat, {}) for m in moves
    ]
    assert "no words for" in caplog.text
