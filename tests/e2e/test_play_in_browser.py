"""Every declared example, played to its end in browsers: one context a seat, by clicking.

The seats open their one-time links, each in a browser context of its own,
and only click: a move on the page of a seat to act, once the others' moves
reached that page by SSE.  The finished game then audits OK.

CI plays each game's example with the fewest seats (four games, under a
minute); every declared example, about five minutes on two cores, with
``LEDGER_BROWSER_FULL=1``.  Why: a click waits for the page's next look for
a new version (a quarter second), and the larger examples run to hundreds
of clicks, which the CI budget cannot hold beside the other tiers.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from tests.e2e.play_browser import mint, open_seat, play_to_the_end
from tests.support.examples import every_example, every_example_id, examples

pytestmark = pytest.mark.e2e


FULL = os.environ.get("LEDGER_BROWSER_FULL", "") not in ("", "0")
FEWEST: dict[str, str] = {}
for (_game, _setup), _name in zip(every_example(), every_example_id(), strict=True):
    _held = FEWEST.get(_game)
    if _held is None or _setup.get("players", 1) < examples(_held)[0][1].get(
        "players", 1
    ):
        FEWEST[_game] = _name
"""Each game's example with the fewest players (the first declared of equals)."""


def _params() -> list[Any]:
    return [
        pytest.param(
            game_type,
            setup,
            id=name,
            marks=()
            if FULL or name in FEWEST.values()
            else pytest.mark.skip(
                reason="every declared example: LEDGER_BROWSER_FULL=1 (CI time)"
            ),
        )
        for (game_type, setup), name in zip(
            every_example(), every_example_id(), strict=True
        )
    ]


@pytest.mark.parametrize("game_type,setup", _params())
def test_a_declared_example_is_played_to_its_end_in_browsers(
    ledger, dashboard_url, browser, game_type, setup
):
    created = ledger.create_game(game_type, setup)
    started = time.monotonic()
    tabs = [
        open_seat(browser, mint(dashboard_url, t.token, created.game_id), t.seats)
        for t in created.tokens
    ]
    try:
        clicks = play_to_the_end(ledger, created.game_id, tabs, seed=7)
        for tab in tabs:  # every seat sees the end, pushed to its page
            tab.page.locator(".play-state[data-ended=yes]").wait_for()
    finally:
        for tab in tabs:
            tab.context.close()
    print(f"{game_type} {setup}: {clicks} clicks in {time.monotonic() - started:.1f} s")
    report = audit_records(str(created.game_id), ledger.read_records(created.game_id))
    assert report.ok, report.failures
