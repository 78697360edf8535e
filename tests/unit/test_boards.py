"""Every game draws its table from a view as SVG, and never shows what the
viewer may not see.

Every declared example, played at random, drawn at its start, its middle and
its end for a spectator and for every seat: the drawing parses as XML and as
HTML, is an accessible image that scales, names none of the strings the full
state holds and the viewer's view lacks (another seat's hand, a deck's
order), draws hidden cards only as a face-down count, and carries a click
target for each thing the viewer's legal moves select.
"""

from __future__ import annotations

import enum
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

import pytest
from pydantic import BaseModel

from domain.contract.core import SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_html import board
from domain.words.board_layout import layout_for
from domain.words.board_text import board_lines
from domain.words.targets import alternatives, command_pairs, selects
from tests.support.examples import every_example_id, examples

NAMES = {0: "rita", 1: "sam", 2: "tove", 3: "ulf", 4: "vera"}
SVG = "{http://www.w3.org/2000/svg}"
SINGLE_FIELDS = {
    "thalara": {"card", "cards", "conflict", "spell", "target"},
    "terralore": {"card", "discards", "destroys", "lane"},
    "vaalbara": {"card", "first", "second", "character", "target"},
    "thorgal": {"chip", "slot"},
}
"""Per game, the command fields whose every value is drawn as a thing of its own."""


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


def seat_secrets(game: str, state: Any, viewer: Viewer) -> set[str]:
    """From the full state, independently of any view: the cards in other
    seats' hidden zones that lie nowhere public."""
    if game not in ("thalara", "terralore", "vaalbara"):
        return set()  # Thorgal: no seat holds a secret (decks: see ``leaves``)
    players = state.players
    others = [p for s, p in enumerate(players) if not viewer.can_see(s)]
    mine = [p for s, p in enumerate(players) if viewer.can_see(s)]
    secret: set[str] = set()
    public: set[str] = set()
    for p in mine:  # the same name in two clans' hands is the viewer's own
        public |= {*p.hand, *([p.chosen] if getattr(p, "chosen", None) else [])}
    for p in players:
        if game == "thalara":
            public |= {*p.discard, *p.won}
        elif game == "terralore":
            public |= {*p.attacking, *p.defending, *p.graveyard, *p.exile, *p.staged}
        elif game == "vaalbara":
            public |= {*p.discard, *p.realm, *([p.played] if p.played else [])}
    if game == "thalara":
        public |= {x.card for c in state.conflicts for x in c.plays}
        public |= {c.artifact for c in state.conflicts}
        public |= {x.target for c in state.conflicts for x in c.spells if x.target}
        secret = {c for p in others for c in (*p.hand, *p.supply)}
    elif game == "terralore":
        secret = {c for p in others for c in p.hand}
        secret |= {x.card for p in others if p.plan for x in p.plan.plays}
    elif game == "vaalbara":
        public |= set(state.revealed)
        secret = {
            c for p in others for c in (*p.hand, *([p.chosen] if p.chosen else []))
        }
    return {c for c in secret - public if c}


def mentions(text: str, token: str) -> bool:
    return re.search(rf"(?<![\w@#.-]){re.escape(token)}(?![\w@#-])", text) is not None


class Strict(HTMLParser):
    """Fails on tags closed out of order: a fragment a browser would repair."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        pass

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


def drawn_targets(root: ET.Element) -> list[str]:
    return [e.get("data-target", "") for e in root.iter() if e.get("data-target")]


def moments(game: Any, example: str, seed: int = 11) -> tuple[Any, list[Any], int]:
    ((_, fields),) = examples(example)
    setup = game.setup_model(**fields)
    play = play_random_game(game, setup, seed=seed)
    seats = sum(len(held) for held in game.player_seats(setup))
    n = len(play.states)
    return setup, [play.states[1], play.states[n // 2], play.states[-1]], seats


def some_moves(game: Any, state: Any, seat: int, most: int = 60) -> list[Any]:
    moves = game.legal_moves(state, seat)
    step = max(1, len(moves) // most)
    return [moves[i] for i in range(0, len(moves), step)]


def check_targets(game: Any, root: ET.Element, state: Any, seat: int) -> None:
    drawn = drawn_targets(root)
    singles = {alt for t in drawn for alt in alternatives(t) if len(alt) == 1}
    for move in some_moves(game, state, seat):
        pairs = command_pairs(move)
        for p in pairs:
            if p.split(":")[0] in SINGLE_FIELDS[game.name]:
                assert frozenset({p}) in singles, (type(move).__name__, p)
        if pairs and game.name == "thorgal":
            assert any(selects(t, move) for t in drawn), move


@pytest.mark.parametrize("example", every_example_id())
def test_boards_are_well_formed_and_show_only_what_the_view_holds(example):
    game = find_game(examples(example)[0][0])
    _, states, seats = moments(game, example)
    for state in states:
        everything = leaves(state)
        for viewer in [SPECTATOR, *(Viewer.player(s) for s in range(seats))]:
            view = game.view(state, viewer)
            drawing = board(game, view, NAMES)
            root = parse(drawing)
            assert root.tag == f"{SVG}svg"
            assert root.get("class") == f"board board-{game.name}"
            said = everything_said(root)
            hidden = everything - leaves(view)
            leaked = sorted(t for t in hidden if len(t) > 1 and mentions(said, t))
            assert not leaked, (viewer, leaked)
            secrets = seat_secrets(game.name, state, viewer)
            assert not [t for t in secrets if mentions(said, t)], viewer
            text = "\n".join(board_lines(view, NAMES))
            assert not sorted(t for t in hidden if len(t) > 1 and mentions(text, t))
            for back in root.iter(f"{SVG}g"):
                if "back" in back.get("class", "").split():
                    assert int(back.get("data-count", "0")) > 0
            if viewer.seats and not game.is_over(state):
                for seat in viewer.seats:
                    check_targets(game, root, state, seat)


def test_another_seats_hand_is_a_face_down_count():
    """The structural rule, from the full state: every card of another seat's
    hand is absent from a seat's drawing, and the hand is drawn as its size."""
    game = find_game("thalara")
    _, states, _ = moments(game, "thalara-3p")
    state = next(s for s in states if s.players[1].hand)
    view = game.view(state, Viewer.player(0))
    root = parse(board(game, view, NAMES))
    said = everything_said(root)
    secret = set(state.players[1].hand) - leaves(view)  # won Artifacts are public
    assert secret and not [c for c in secret if mentions(said, c)]
    seat = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == "1")
    counts = [int(b.get("data-count")) for b in seat.iter() if b.get("data-count")]
    assert len(state.players[1].hand) in counts
    own = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == "0")
    own_targets = " ".join(drawn_targets(own))
    assert all(f"card:{c}" in own_targets.split() for c in state.players[0].hand)


def test_a_drawing_is_an_accessible_image_that_scales():
    game = find_game("vaalbara")
    _, states, _ = moments(game, "vaalbara-2p")
    view = game.view(states[1], Viewer.player(0))
    root = parse(board(game, view, NAMES))
    assert root.get("role") == "img" and root.get("width") == "100%"
    assert root.get("viewBox", "").startswith("0 0 400 ")
    title, desc = root[0], root[1]
    assert title.tag == f"{SVG}title" and title.text
    assert desc.tag == f"{SVG}desc"
    assert desc.text == "\n".join(board_lines(view, NAMES))
    for node in root.iter():
        assert node.tag not in (f"{SVG}script", f"{SVG}style", f"{SVG}foreignObject")
        assert "style" not in node.attrib
        assert not [a for a in node.attrib if a.lower().startswith("on")]
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in g.get("class", "")]
    assert pieces and all(g[0].tag == f"{SVG}title" and g[0].text for g in pieces)


def test_a_thalara_card_shows_its_strength_and_colour():
    game = find_game("thalara")
    ((_, fields),) = examples("thalara-2p")
    play = play_random_game(game, game.setup_model(**fields), seed=11)
    state = next(s for s in play.states if s.players[0].hand)
    view = game.view(state, Viewer.player(0))
    card = next(c for c in view.players[0].hand if c.startswith("r"))
    root = parse(board(game, view, NAMES))
    (drawn,) = [
        g
        for g in root.iter(f"{SVG}g")
        if "card" in g.get("class", "") and f"card:{card}" in g.get("data-target", "")
    ]
    texts = [t.text for t in drawn.iter(f"{SVG}text")]
    title = drawn[0].text or ""
    assert re.fullmatch(rf"{re.escape(card)} \(Remnant, strength \d, \w+\)", title)
    strength, colour = re.findall(r"strength (\d), (\w+)", title)[0]
    assert texts[0] == strength and colour in texts


def test_names_and_cards_are_text_never_markup():
    game = find_game("thalara")
    _, states, _ = moments(game, "thalara-2p")
    view = game.view(states[1], Viewer.player(0))
    root = parse(board(game, view, {0: "<b>rita & co</b>", 1: 'sam" onload="x'}))
    assert "<b>rita & co</b> · Myrja" in everything_said(root)
    assert not list(root.iter("b")) and all(
        "onload" not in e.attrib for e in root.iter()
    )


def test_thorgal_reads_in_the_rulebooks_words():
    game = find_game("thorgal")
    _, states, _ = moments(game, "thorgal-2p")
    lines = "\n".join(board_lines(game.view(states[1], SPECTATOR), NAMES))
    for internal in ("slot -1", "goods 1, ", "after_items", "tasks", "op "):
        assert internal not in lines
    for phrase in ("Action Row", "Wound area", "Goods", "Threat", "Experience"):
        assert phrase in lines


def test_a_board_handed_another_games_view_is_a_type_error():
    thalara, vaalbara = find_game("thalara"), find_game("vaalbara")
    ((_, fields),) = examples("vaalbara-2p")
    setup = vaalbara.setup_model(**fields)
    view = vaalbara.view(vaalbara.initial_state(setup), SPECTATOR)
    assert thalara.board is not None
    with pytest.raises(TypeError, match="ThalaraView"):
        thalara.board(view, NAMES)


@pytest.mark.parametrize("kind", ["place_wound", "place_journey", "place_combat"])
def test_every_thorgal_tile_placement_has_a_cell_to_click(kind):
    """A tile question's grid carries ``row:r,col:c`` on every cell, so each
    legal ``PlaceTile`` is selected by the cell its corner goes on."""
    game = find_game("thorgal")
    ((_, fields),) = examples("thorgal-2p")
    setup = game.setup_model(**fields)
    for seed in range(40):
        play = play_random_game(game, setup, seed=seed)
        asked = [s for s in play.states if s.pending and s.pending.kind == kind]
        if asked:
            break
    else:
        pytest.skip(f"no random game asked {kind}")
    state = asked[0]
    seat = state.pending.seat
    root = parse(board(game, game.view(state, Viewer.player(seat)), NAMES))
    drawn = drawn_targets(root)
    moves = list(game.legal_moves(state, seat))
    assert moves
    for move in moves:
        assert any(selects(t, move) for t in drawn), move


@pytest.mark.parametrize("name", ["terralore", "thalara"])
def test_a_finished_game_says_last_why_it_ended_and_a_running_one_does_not(name):
    game = find_game(name)
    _, states, _ = moments(game, game.examples[0].name)
    running, over = (
        layout_for(view)(view, NAMES)
        for view in (game.view(s, SPECTATOR) for s in (states[0], states[-1]))
    )
    assert not [f for f in running.facts if f.startswith("ended")]
    assert game.is_over(states[-1])
    assert re.fullmatch(r"ended: \w.*", over.facts[-1]), over.facts
