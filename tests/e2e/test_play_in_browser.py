"""Every declared example, played to its end in browsers: one context a seat, by clicking.

The seats open their one-time links, each in a browser context of its own,
and only click: a move on the page of a seat to act, once the others' moves
reached that page by SSE.  The finished game then audits OK.
"""

from __future__ import annotations

import time

import pytest

from domain.audit.game_audit import audit_records
from tests.e2e.play_browser import mint, open_seat, play_to_the_end
from tests.support.examples import every_example, every_example_id

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("game_type,setup", every_example(), ids=every_example_id())
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
