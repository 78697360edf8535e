"""Every game draws its table from a view, well-formed, and never shows what
the viewer may not see.

Random complete games, a few mid-game positions each, the board drawn for a
spectator and for every seat: it parses as XML and as HTML, it names none of
the strings the viewer's view lacks and the admin's view has, and a hidden
list is drawn face down (its size, no card).
"""

from __future__ import annotations

import enum
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

import pytest
from pydantic import BaseModel

from domain.contract.core import ADMIN, SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_html import board
from tests.support.examples import examples, smallest_and_largest

NAMES = {0: "rita", 1: "sam", 2: "tove", 3: "ulf", 4: "vera"}


def leaves(value: Any) -> set[str]:
    """Every string value in a model (not its field names, not enum values:
    those are the vocabulary every board prints, like "attacking")."""
    if isinstance(value, enum.Enum):
        return set()
    if isinstance(value, str):
        return {value}
    if isinstance(value, BaseModel):
        return set().union(
            *(leaves(getattr(value, f)) for f in type(value).model_fields)
        )
    if isinstance(value, tuple | list):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return set()


def mentions(text: str, token: str) -> bool:
    return re.search(rf"(?<![\w@#.-]){re.escape(token)}(?![\w@#-])", text) is not None


class Strict(HTMLParser):
    """Fails on tags closed out of order: a fragment a browser would repair."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, tag


def parse(fragment: str) -> ET.Element:
    root = ET.fromstring(fragment)
    checker = Strict()
    checker.feed(fragment)
    checker.close()
    assert checker.open == []
    return root


def everything_said(root: ET.Element) -> str:
    return " ".join(
        [*root.itertext(), *(v for e in root.iter() for v in e.attrib.values())]
    )


@pytest.mark.parametrize("example", smallest_and_largest())
def test_boards_are_well_formed_and_show_only_what_the_view_holds(example):
    ((game_type, fields),) = examples(example)
    game = find_game(game_type)
    setup = game.setup_model(**fields)
    play = play_random_game(game, setup, seed=11)
    seats = sum(len(held) for held in game.player_seats(setup))
    n = len(play.states)
    for state in (play.states[n // 4], play.states[n // 2], play.states[3 * n // 4]):
        everything = leaves(game.view(state, ADMIN))
        for viewer in [SPECTATOR, *(Viewer.player(s) for s in range(seats))]:
            view = game.view(state, viewer)
            root = parse(board(game, view, NAMES))
            assert root.get("class") == f"board board-{game.name}"
            said = everything_said(root)
            hidden = everything - leaves(view)
            leaked = sorted(t for t in hidden if mentions(said, t))
            assert not leaked, (viewer, leaked)
            for face_down in root.iter("ol"):
                if "hidden" in face_down.get("class", "").split():
                    assert len(face_down) == 0 and int(face_down.get("data-count")) > 0
            for seat_node in root.iter("li"):
                if "seat" not in seat_node.get("class", "").split():
                    continue
                seat = int(seat_node.get("data-seat"))
                for hand in seat_node.iter("ol"):
                    if "hand" in hand.get("class", "").split() and not viewer.can_see(
                        seat
                    ):
                        assert len(hand) == 0, (viewer, seat)


def test_names_and_cards_are_text_never_markup():
    game = find_game("thalara")
    ((_, fields),) = examples("thalara-2p")
    play = play_random_game(game, game.setup_model(**fields), seed=2)
    view = game.view(play.states[len(play.states) // 2], Viewer.player(0))
    root = parse(board(game, view, {0: "<b>rita & co</b>", 1: 'sam" onload="x'}))
    assert "<b>rita & co</b> · " in everything_said(root)
    assert not list(root.iter("b")) and all(
        "onload" not in e.attrib for e in root.iter()
    )


def test_a_seat_sees_its_own_hand_face_up():
    game = find_game("thalara")
    ((_, fields),) = examples("thalara-2p")
    play = play_random_game(game, game.setup_model(**fields), seed=2)
    state = play.states[len(play.states) // 2]
    view = game.view(state, Viewer.player(0))
    root = parse(board(game, view, NAMES))
    hands = {
        int(li.get("data-seat")): ol
        for li in root.iter("li")
        if li.get("class") == "seat"
        for ol in li.iter("ol")
        if ol.get("class", "").startswith("hand")
    }
    assert [c.text for c in hands[0]] == list(view.players[0].hand)
    assert hands[1].get("class") == "hand hidden" or view.players[1].hand_size == 0


def test_a_board_handed_another_games_view_is_a_type_error():
    thalara, vaalbara = find_game("thalara"), find_game("vaalbara")
    ((_, fields),) = examples("vaalbara-2p")
    setup = vaalbara.setup_model(**fields)
    view = vaalbara.view(vaalbara.initial_state(setup), SPECTATOR)
    assert thalara.board is not None
    with pytest.raises(TypeError, match="ThalaraView"):
        thalara.board(view, NAMES)
