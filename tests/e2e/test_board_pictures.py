"""Each game's drawn board in a real browser, for a seat and for a spectator.

Per game, a random game's middle event (the first from the middle on where
seat 1 holds cards) is drawn for seat 1 and for a
spectator, each on a page with the dashboard's stylesheet, at a phone's
width (390 px), in headless Chromium; the seat's picture is scrolled to
its own cards.  The rendered page (its DOM and the
text a person sees) is checked against the full state: none of another
seat's secret cards, none of the strings the viewer's view lacks; the
drawing fits the phone's width.  With ``LEDGER_SCREENSHOTS=1`` each page is
saved as ``docs/dashboard/board-<game>-<viewer>.png``.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest

from domain.contract.core import SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.simulate import play_random_game
from domain.words.board_html import board
from tests.e2e.dashboard import screenshot
from tests.support.examples import examples
from tests.unit.test_boards import leaves, mentions, seat_secrets

pytestmark = pytest.mark.e2e
CSS = Path(__file__).resolve().parents[2] / "services/dashboard/static/dashboard.css"
NAMES = {0: "rita", 1: "sam", 2: "tove"}
GAMES = ["thalara-2p", "terralore-2p", "vaalbara-3p", "thorgal-2p"]
PHONE = {"width": 390, "height": 1100}


def holds_cards(state: Any) -> bool:
    """Seat 1 holds a hand (Thorgal's seats hold none: any state will do)."""
    players = getattr(state, "players", None)
    return not isinstance(players, tuple) or bool(players[0].hand)


def page_of(title: str, fragment: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{CSS.read_text()}</style>"
        f'</head><body><main><h1>{html.escape(title)}</h1><div class="board-slot">'
        f"{fragment}</div></main></body></html>"
    )


@pytest.mark.parametrize("example", GAMES)
def test_a_board_in_the_browser_shows_only_what_its_viewer_may_see(
    browser: Any, example: str
) -> None:
    ((game_type, fields),) = examples(example)
    game = find_game(game_type)
    play = play_random_game(game, game.setup_model(**fields), seed=11)
    middle = play.states[len(play.states) // 2 :]
    state = next((s for s in middle if holds_cards(s)), middle[0])
    everything = leaves(state)
    for who, viewer in (("seat", Viewer.player(0)), ("spectator", SPECTATOR)):
        view = game.view(state, viewer)
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        title = f"{game.title}, {'seat 1' if who == 'seat' else 'a spectator'}"
        page.set_content(page_of(title, board(game, view, NAMES)))
        drawing = page.locator(".board-slot svg[role=img]")
        assert drawing.count() == 1
        box = drawing.bounding_box()
        assert box is not None and box["width"] <= PHONE["width"]
        seen = [page.content(), page.locator("body").inner_text()]
        hidden = {t for t in everything - leaves(view) if len(t) > 1}
        secrets = seat_secrets(game.name, state, viewer)
        assert secrets or hidden, "nothing hidden: the test would prove nothing"
        for text in seen:
            assert not [t for t in hidden | secrets if mentions(text, t)], who
        if who == "seat":  # the picture shows the seat's own cards, face up
            page.evaluate(
                "() => window.scrollTo(0, window.scrollY + document.querySelector("
                "'g.seat[data-seat=\"0\"]').getBoundingClientRect().top - 8)"
            )
        screenshot(page, f"board-{game.name}-{who}", full_page=False)
        context.close()
