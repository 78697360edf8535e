"""Helpers of the play-in-the-browser tests: links, seats as browser contexts, clicking.

A seat is a browser context of its own (its own cookies), opened from a
one-time link minted as ``ledger tournament my-games`` mints it
(``POST /play/links`` with the seat token as a bearer header).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx


def mint(dashboard_url: str, token: str, game_id: Any) -> str:
    """A one-time play link for the seat ``token`` holds in ``game_id``."""
    answer = httpx.post(
        f"{dashboard_url}/play/links",
        json={"game_id": str(game_id)},
        headers={"authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    return dashboard_url + answer.json()["path"]


@dataclass
class SeatTab:
    seats: tuple[int, ...]
    context: Any
    page: Any


def open_seat(
    browser: Any, link: str, seats: tuple[int, ...], **options: Any
) -> SeatTab:
    """A fresh browser context that opens ``link`` and lands on its game."""
    context = browser.new_context(
        **{"viewport": {"width": 1200, "height": 900}, **options}
    )
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    tab.goto(link)
    tab.wait_for_url("**/play/*-*")
    tab.locator("#play-state .play-state").wait_for()
    return SeatTab(seats, context, tab)


def shown_version(tab: SeatTab) -> int:
    return int(
        tab.page.locator("#play-state .play-state").get_attribute("data-version")
    )


def wait_for_version(tab: SeatTab, version: int) -> None:
    """Until the page shows ``version``: pushed by SSE, never reloaded here."""
    tab.page.wait_for_function(
        "v => Number(document.querySelector('#play-state .play-state')"
        "?.dataset.version) >= v",
        arg=version,
    )


def moved(response: Any) -> bool:
    """The answer to a move's form."""
    return response.request.method == "POST" and response.url.endswith("/move")


def play_to_the_end(ledger: Any, game_id: UUID, tabs: list[SeatTab], seed: int) -> int:
    """Click legal moves, each on the page of a seat to act, until the game
    ends; answers the number of moves clicked.

    Each page is first waited on until SSE brought it the game's newest
    version, so every move is chosen on a page the others' moves reached.
    """
    rnd = random.Random(seed)
    clicks = 0
    while True:
        game = ledger.load(game_id)
        if game.is_over:
            return clicks
        acting = [t for t in tabs if any(s in game.to_act() for s in t.seats)]
        assert acting, f"nobody to act at version {game.version}"
        tab = acting[0]
        wait_for_version(tab, game.version)
        buttons = tab.page.locator("#play-state ol.moves button")
        count = buttons.count()
        assert count, f"seats {tab.seats} to act but no move listed"
        choice = buttons.nth(rnd.randrange(count))
        with tab.page.expect_response(moved):  # htmx swaps the answer in place
            choice.click()
        clicks += 1
