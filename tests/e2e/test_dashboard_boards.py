"""The replay shows each game's board and its log in sentences, and nothing hidden.

Per game, a running game with named players is opened at a mid-game event:
the page shows the board drawn from the spectator's view and the sentence of
each event, the JSON sits behind a toggle, and the address follows stepping.
The rendered page's text is checked against two kinds of hidden strings:
what only the admin sees (the spectator's rule) and what only a seat sees of
its own hand (the seat's rule: a seat's secrets are not on the public page).
With ``LEDGER_SCREENSHOTS=1`` each game's page is saved in ``docs/dashboard/``.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import httpx
import pytest

from ledger.v1 import game_service_pb2 as pb
from services.api.client import Table, play_one
from tests.e2e.client import create
from tests.e2e.dashboard import screenshot
from tests.e2e.test_dashboard_no_leaks import frames, hidden_strings, leaked, strings

pytestmark = pytest.mark.e2e
NAMES = ("rita", "sam", "ada")
GAMES = [
    ("thalara", {"players": 2, "characters": ["myrja", "canto"]}),
    ("terralore", {"players": 2}),
    ("vaalbara", {"players": 3}),
    ("thorgal", {"players": 2}),
]


def named_running(server: Any, game_type: str, setup: dict[str, Any]) -> Table:
    """A game with named players, still running after several moves."""
    for attempt in range(10):
        names = NAMES[: setup["players"]]
        table = create(server, game_type, player_ids=names, **setup)
        rnd = random.Random(attempt)
        for _ in range(8):
            if play_one(server, table, rnd) is None:
                break
        game = server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
        if game.status == "active" and game.version >= 6:
            return table
    raise AssertionError(f"no {game_type} game was still running after 8 moves")


def seat_secrets(server: Any, table: Table) -> set[str]:
    """What some seat sees of this game and a spectator does not."""
    public = strings(frames(server, table.game_id, None), set())
    own: set[str] = set()
    for token in table.tokens.values():
        strings(frames(server, table.game_id, token), own)
    return {s for s in own - public if len(s) >= 2}


@pytest.mark.parametrize("game_type,setup", GAMES, ids=[g for g, _ in GAMES])
def test_a_replay_shows_the_board_and_sentences_and_no_hidden_text(
    grpc_server: Any,
    ledger: Any,
    dashboard_url: str,
    page: Any,
    game_type: str,
    setup: Any,
) -> None:
    table = named_running(grpc_server, game_type, setup)
    head = int(
        grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game.version
    )
    middle = head // 2 + 1
    page.goto(f"{dashboard_url}/games/{table.game_id}?v={middle}")
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{middle}'"
    )
    board = page.locator("#frame-board > *")
    assert board.count() == 1 and (board.first.text_content() or "").strip()
    assert page.locator("#frame-board svg[role=img]").count() == 1
    sentence = page.locator("#frame-sentence").inner_text()
    assert sentence and "{" not in sentence
    log = page.locator("#log li")
    assert log.count() >= min(head, 6)
    assert page.locator("#log li[aria-current]").inner_text() == sentence
    # the JSON is there, behind its toggle
    assert not page.locator("#frame-event").is_visible()
    page.locator("#frame-json summary").click()
    assert page.locator("#frame-event").is_visible()
    page.locator("#frame-json summary").click()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"replay-{game_type}", full_page=False)

    # no hidden string in the rendered page, for either role's secrets
    text = page.locator("body").inner_text()
    html = page.content()
    hidden = hidden_strings(grpc_server, ledger, table.game_id)
    secrets = seat_secrets(grpc_server, table)
    assert hidden, "nothing hidden: the test would prove nothing"
    assert not leaked([text, html], hidden)
    assert not leaked([text, html], secrets)

    # the address follows stepping, so a reload or a shared link shows this event
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{middle + 1}'"
    )
    assert page.url.endswith(f"?v={middle + 1}")
    page.reload()
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{middle + 1}'"
    )


def test_a_running_games_page_redraws_its_board_as_moves_arrive(
    grpc_server: Any, ledger: Any, dashboard_url: str, page: Any
) -> None:
    table = named_running(grpc_server, "terralore", {"players": 2})
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game.version
    page.goto(f"{dashboard_url}/games/{table.game_id}")
    live = page.locator("#live-board .live-board")
    live.wait_for()
    assert live.get_attribute("data-version") == str(head)
    assert page.locator("#live-board .board-slot > *").count() == 1
    assert page.locator("#live-board .sentence").inner_text().strip()

    rnd = random.Random(7)
    assert play_one(grpc_server, table, rnd) is not None
    after = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game.version
    assert after > head
    page.wait_for_function(
        "(v) => document.querySelector('#live-board .live-board')"
        "?.dataset.version === String(v)",
        arg=after,
    )
    hidden = hidden_strings(grpc_server, ledger, table.game_id)
    secrets = seat_secrets(grpc_server, table)
    html = page.content()
    assert not leaked([html], hidden) and not leaked([html], secrets)


def sse_events(url: str, until: str) -> str:
    """The Server-Sent Events text at ``url`` up to the event named ``until``."""
    seen = ""
    with httpx.stream("GET", url, timeout=10) as sse:
        for line in sse.iter_lines():
            seen += line + "\n"
            if line == "" and f"event: {until}" in seen:
                return seen
    return seen


def test_the_live_board_sends_the_newest_frame_and_ends_with_the_game(
    grpc_server: Any, ledger: Any, dashboard_url: str
) -> None:
    table = named_running(
        grpc_server, "thalara", {"players": 2, "characters": ["myrja", "canto"]}
    )
    url = f"{dashboard_url}/games/{table.game_id}/board"
    head = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    running = sse_events(url, "board")
    assert f'data-version="{head.version}"' in running
    assert "event: done" not in running and "has ended" not in running

    grpc_server.call(
        "Adjudicate",
        pb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="test"),
        grpc_server.admin_token,
    )
    ended = sse_events(url, "done")
    assert "has ended" in ended and "data: ended" in ended
    assert httpx.get(f"{dashboard_url}/games/{uuid.uuid4()}/board").status_code == 404
