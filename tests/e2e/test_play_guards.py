"""The play pages' locks: the cookie, the one-time link, CSRF, seats, spectators,
and a page a phone, a keyboard and axe-core can all use.

Each test opens seats the way a player does (a one-time link in a browser
context of its own) and attacks them as a cheating player, another site
and a spectator would.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.words.targets import alternatives
from tests.e2e.play_browser import (
    mint,
    moved,
    open_seat,
    shown_version,
    wait_for_version,
)

pytestmark = pytest.mark.e2e

AXE = (
    Path(__file__).resolve().parents[2]
    / "tools"
    / "axe"
    / "node_modules"
    / "axe-core"
    / "axe.min.js"
)


@pytest.fixture
def duel(ledger: Any) -> Any:
    """A 2-player Terralore game (both seats move at once: each always has moves)."""
    return ledger.create_game("terralore", {"players": 2})


class Logged(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def logs() -> Iterator[Logged]:
    """Every log line of the process, the HTTP access log turned on."""
    handler = Logged()
    access = logging.getLogger("uvicorn.access")
    level = access.level
    access.setLevel(logging.INFO)
    loggers = [logging.getLogger(), access, logging.getLogger("uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)
    access.setLevel(level)


def _cookie(tab: Any, game_id: Any) -> dict[str, Any]:
    [found] = [
        c for c in tab.context.cookies() if c["name"] == f"ledger_seat_{game_id.hex}"
    ]
    return found


def test_the_link_sets_an_httponly_strict_cookie_scoped_to_the_game(
    ledger, dashboard_url, browser, duel
):
    seat = duel.tokens[0]
    tab = open_seat(browser, mint(dashboard_url, seat.token, duel.game_id), seat.seats)
    try:
        cookie = _cookie(tab, duel.game_id)
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert cookie["path"] == f"/play/{duel.game_id}"
        assert tab.page.evaluate("document.cookie") == ""  # no script reads it
        assert tab.page.url == f"{dashboard_url}/play/{duel.game_id}"
    finally:
        tab.context.close()


def test_over_https_the_cookie_is_secure(ledger):
    from starlette.testclient import TestClient

    from services.dashboard.app import create_app
    from services.dashboard.reader import reader_for

    game = ledger.create_game("terralore", {"players": 2})
    reader = reader_for(ledger)
    try:
        with TestClient(create_app(reader), base_url="https://testserver") as client:
            path = client.post(
                "/play/links",
                json={"game_id": str(game.game_id)},
                headers={"authorization": f"Bearer {game.tokens[0].token}"},
            ).json()["path"]
            entered = client.get(path)
        cookie = entered.headers["set-cookie"].lower()
        assert (
            "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        )
    finally:
        reader.close()


def test_no_token_in_any_page_url_or_log_line_after_the_exchange(
    ledger, dashboard_url, browser, duel, logs
):
    seat = duel.tokens[0]
    link = mint(dashboard_url, seat.token, duel.game_id)
    code = link.rsplit("/", 1)[1]
    tab = open_seat(browser, link, seat.seats)
    urls: list[str] = []
    pages: list[str] = []
    tab.page.on("request", lambda r: urls.append(r.url))
    tab.page.on(
        "response",
        lambda r: (
            pages.append(r.text())
            if "text" in (r.headers.get("content-type") or "") and "/live" not in r.url
            else None
        ),
    )
    try:
        pages.append(tab.page.content())
        with tab.page.expect_response(moved):
            tab.page.locator("#play-state ol.moves button").first.click()
        pages.append(tab.page.content())
        tab.page.goto(f"{dashboard_url}/games/{duel.game_id}")
        pages.append(tab.page.content())
        history = tab.page.evaluate("[location.href, document.referrer]")
    finally:
        tab.context.close()
    everything = "\n".join([*urls, *pages, *logs.lines, *history])
    for token in (t.token for t in duel.tokens):
        assert token not in everything
    assert any(f"/play/{duel.game_id}/move" in line for line in logs.lines), (
        "the access log was not captured: this test would prove nothing"
    )
    # the code is in the log of the one request that spent it, and nowhere after
    assert [u for u in urls if code in u] == []
    assert httpx.get(link, timeout=10).status_code == 410


def test_a_link_opens_once(ledger, dashboard_url, browser, duel):
    seat = duel.tokens[0]
    link = mint(dashboard_url, seat.token, duel.game_id)
    tab = open_seat(browser, link, seat.seats)
    tab.context.close()
    thief = browser.new_context()
    try:
        page = thief.new_page()
        answer = page.goto(link)
        assert answer.status == 410
        assert thief.cookies() == []
        assert page.goto(f"{dashboard_url}/play/{duel.game_id}").status == 403
    finally:
        thief.close()


def test_a_link_is_minted_only_for_the_seat_the_token_holds(
    ledger, dashboard_url, duel
):
    other = ledger.create_game("terralore", {"players": 2})
    for token, game in (
        (duel.tokens[0].token, other.game_id),
        ("nonsense", duel.game_id),
    ):
        answer = httpx.post(
            f"{dashboard_url}/play/links",
            json={"game_id": str(game)},
            headers={"authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert answer.status_code == 403


def _form(page: Any) -> dict[str, str]:
    read = "n => document.querySelector(`#play-state input[name=${n}]`).value"
    return {n: page.evaluate(read, n) for n in ("csrf", "version", "command_id")}


def test_a_cross_site_form_and_a_wrong_csrf_token_are_refused(
    ledger, dashboard_url, browser, duel
):
    seat = duel.tokens[0]
    tab = open_seat(browser, mint(dashboard_url, seat.token, duel.game_id), seat.seats)
    before = ledger.load(duel.game_id).version
    form = _form(tab.page)
    target = f"{dashboard_url}/play/{duel.game_id}/move"
    fields = "".join(
        f'<input name="{k}" value="{v}">' for k, v in {**form, "move": "0:0"}.items()
    )
    evil = f'<form method="post" action="{target}">{fields}</form><script>document.forms[0].submit()</script>'
    try:
        # another site's page, in the seat's own browser, even with a stolen CSRF token
        tab.context.route(
            "http://evil.example/",
            lambda r: r.fulfill(body=evil, content_type="text/html"),
        )
        attack = tab.context.new_page()
        with attack.expect_navigation(url=target) as done:
            attack.goto("http://evil.example/")
        assert done.value.status == 403
        # this site's origin, the cookie, but a wrong CSRF token
        wrong = tab.page.evaluate(
            """async ([url, body]) => (await fetch(url, {method: "POST", body: new URLSearchParams(body)})).status""",
            [target, {**form, "csrf": "0" * 64, "move": "0:0"}],
        )
        assert wrong == 403
        # the right token, the cookie, but another Origin (a tool, not a browser)
        cookie = _cookie(tab, duel.game_id)
        forged = httpx.post(
            target,
            data={**form, "move": "0:0"},
            cookies={cookie["name"]: cookie["value"]},
            headers={"origin": "http://evil.example"},
            timeout=10,
        )
        assert forged.status_code == 403
        assert ledger.load(duel.game_id).version == before
    finally:
        tab.context.close()


def test_another_seats_cookie_cannot_act_for_this_seat(
    ledger, dashboard_url, browser, duel
):
    mine, theirs = duel.tokens
    tab = open_seat(
        browser, mint(dashboard_url, theirs.token, duel.game_id), theirs.seats
    )
    before = ledger.load(duel.game_id).version
    try:
        form = _form(tab.page)
        status = tab.page.evaluate(
            """async ([url, body]) => (await fetch(url, {method: "POST", body: new URLSearchParams(body)})).status""",
            [
                f"{dashboard_url}/play/{duel.game_id}/move",
                {**form, "move": f"{mine.seats[0]}:0"},
            ],
        )
        assert status == 409  # refused by the seat rule, shown on the page
        for action in ("resign", "offer"):
            status = tab.page.evaluate(
                """async ([url, body]) => (await fetch(url, {method: "POST", body: new URLSearchParams(body)})).status""",
                [
                    f"{dashboard_url}/play/{duel.game_id}/{action}",
                    {"csrf": form["csrf"], "seat": str(mine.seats[0])},
                ],
            )
            assert status == 409
        assert ledger.load(duel.game_id).version == before
        # the same token, moved into another game's cookie, is no seat there
        other = ledger.create_game("terralore", {"players": 2})
        cookie = _cookie(tab, duel.game_id)
        page = httpx.get(
            f"{dashboard_url}/play/{other.game_id}",
            cookies={f"ledger_seat_{other.game_id.hex}": cookie["value"]},
            timeout=10,
        )
        assert page.status_code == 403
    finally:
        tab.context.close()


def test_a_spectator_can_watch_but_never_act(ledger, dashboard_url, browser, duel):
    watcher = browser.new_context()
    before = ledger.load(duel.game_id).version
    try:
        page = watcher.new_page()
        assert page.goto(f"{dashboard_url}/play/{duel.game_id}").status == 403
        page.goto(f"{dashboard_url}/games/{duel.game_id}")
        assert page.locator("ol.moves, form[action*='/play/']").count() == 0
        for action in ("move", "resign", "offer", "accept"):
            status = page.evaluate(
                """async (url) => (await fetch(url, {method: "POST", body: new URLSearchParams({move: "0:0", csrf: "x", version: "1", command_id: "00000000-0000-0000-0000-000000000000"})})).status""",
                f"{dashboard_url}/play/{duel.game_id}/{action}",
            )
            assert status == 403
        assert ledger.load(duel.game_id).version == before
    finally:
        watcher.close()


@pytest.mark.parametrize(
    "game_type,setup",
    [
        ("thalara", {"players": 4}),
        ("terralore", {"players": 2}),
        ("vaalbara", {"players": 5}),
        ("thorgal", {"players": 4}),
    ],
)
def test_a_390_px_phone_has_no_horizontal_scroll(
    ledger, dashboard_url, browser, game_type, setup
):
    game = ledger.create_game(game_type, setup)
    seat = game.tokens[0]
    tab = open_seat(
        browser,
        mint(dashboard_url, seat.token, game.game_id),
        seat.seats,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    try:
        wide = tab.page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert wide[0] <= wide[1], (
            f"the page is {wide[0]} px wide in a {wide[1]} px screen"
        )
    finally:
        tab.context.close()


def test_a_move_is_played_by_keyboard_alone(ledger, dashboard_url, browser, duel):
    seat = duel.tokens[0]
    tab = open_seat(browser, mint(dashboard_url, seat.token, duel.game_id), seat.seats)
    page = tab.page
    before = ledger.load(duel.game_id).version
    try:
        # a board target by keyboard narrows the list ...
        for _ in range(200):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.target || ''"):
                break
        target = page.evaluate("document.activeElement.dataset.target")
        assert target, "no board target is reachable by Tab"
        page.keyboard.press("Enter")
        shown = page.locator("#play-state ol.moves li:not([hidden])")
        assert shown.count() > 0
        for i in range(shown.count()):
            pairs = set(shown.nth(i).get_attribute("data-targets").split())
            assert any(alt <= pairs for alt in alternatives(target)), target
        # ... and focuses its first move: Enter plays it
        assert page.evaluate("document.activeElement.name") == "move"
        with page.expect_response(moved):
            page.keyboard.press("Enter")
        assert ledger.load(duel.game_id).version > before
        wait_for_version(tab, ledger.load(duel.game_id).version)
        assert shown_version(tab) == ledger.load(duel.game_id).version
        # the keyboard stays in the panel, on its new status line
        assert page.evaluate("document.activeElement.classList.contains('status')")
    finally:
        tab.context.close()


def test_the_other_seat_sees_the_move_as_it_happens(ledger, dashboard_url, browser):
    game = ledger.create_game("vaalbara", {"players": 2})
    tabs = [
        open_seat(browser, mint(dashboard_url, t.token, game.game_id), t.seats)
        for t in game.tokens
    ]
    try:
        head = ledger.load(game.game_id)
        [mover] = [t for t in tabs if head.to_act()[0] in t.seats]
        [other] = [t for t in tabs if t is not mover]
        with mover.page.expect_response(moved):
            mover.page.locator("#play-state ol.moves button").first.click()
        wait_for_version(other, ledger.load(game.game_id).version)  # no reload: SSE
        assert other.page.locator("ol.sentences li").count() > 0
    finally:
        for tab in tabs:
            tab.context.close()


@pytest.mark.skipif(
    not AXE.exists(), reason="axe-core not installed: cd tools/axe && npm ci"
)
@pytest.mark.parametrize(
    "viewport", [{"width": 1200, "height": 900}, {"width": 390, "height": 844}]
)
def test_axe_finds_no_serious_or_critical_violation(
    ledger, dashboard_url, browser, duel, viewport
):
    seat = duel.tokens[0]
    tab = open_seat(
        browser,
        mint(dashboard_url, seat.token, duel.game_id),
        seat.seats,
        viewport=viewport,
    )
    try:
        for shown in ("board", "narrowed"):
            if shown == "narrowed":
                tab.page.locator("[data-target]").first.click()
            tab.page.add_script_tag(path=str(AXE))
            found = tab.page.evaluate(
                "async () => (await axe.run(document)).violations"
            )
            bad = [
                (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                for v in found
                if v["impact"] in ("serious", "critical")
            ]
            assert bad == [], bad
    finally:
        tab.context.close()


def test_a_tournament_player_opens_a_game_from_their_games_page(
    ledger, dashboard_url, browser
):
    from services.tournaments.desk import TournamentDesk

    desk = TournamentDesk(ledger.env_for_peers, ledger)
    try:
        cup, _ = desk.create("duel", "terralore", "round_robin", 1, 2, {})
        tokens = {p: desk.register(cup.id, p) for p in ("ann", "bob")}
        desk.start_round(cup.id)
        [game] = desk.my_games(cup.id, "ann", tokens["ann"])
    finally:
        desk.close()
    answer = httpx.post(
        f"{dashboard_url}/play/links",
        json={"tournament_id": str(cup.id)},
        headers={"authorization": f"Bearer {tokens['ann']}"},
        timeout=30,
    )
    link = dashboard_url + answer.json()["path"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(link)
        page.wait_for_url(f"**/play/tournaments/{cup.id}")
        assert tokens["ann"] not in page.content()
        assert game["token"] not in page.content()
        with page.expect_navigation():
            page.locator(f"tr[data-game='{game['game_id']}'] button").click()
        assert page.url == f"{dashboard_url}/play/{game['game_id']}"
        assert page.locator("#play-state ol.moves button").count() > 0
        # bob's token is no key to ann's page
        bob = httpx.get(
            f"{dashboard_url}/play/tournaments/{cup.id}",
            cookies={f"ledger_player_{cup.id.hex}": tokens["bob"] + "x"},
            timeout=10,
        )
        assert bob.status_code == 403
    finally:
        context.close()


def test_a_link_clicked_on_another_site_lands_on_the_seat(
    ledger, dashboard_url, browser, duel
):
    """The chat app holding the link is another site: the Strict cookie set by
    the exchange must still reach the game's page (the exchange moves on by a
    page of ours, not by a redirect of that cross-site navigation)."""
    seat = duel.tokens[0]
    link = mint(dashboard_url, seat.token, duel.game_id)
    context = browser.new_context()
    try:
        context.route(
            "http://chat.example/",
            lambda r: r.fulfill(
                body=f'<a href="{link}">your game</a>', content_type="text/html"
            ),
        )
        page = context.new_page()
        page.goto("http://chat.example/")
        page.click("a")
        page.wait_for_url(f"{dashboard_url}/play/{duel.game_id}")
        page.locator("#play-state ol.moves button").first.wait_for()
    finally:
        context.close()


def test_a_form_sent_twice_is_one_move(ledger, dashboard_url, browser, duel):
    """A double click, a resent form: the same command id, recorded once."""
    seat = duel.tokens[0]
    tab = open_seat(browser, mint(dashboard_url, seat.token, duel.game_id), seat.seats)
    before = ledger.load(duel.game_id).version
    try:
        form = {**_form(tab.page), "move": f"{seat.seats[0]}:0"}
        post = """async ([url, body]) => (await fetch(url, {method: "POST", body: new URLSearchParams(body)})).status"""
        url = f"{dashboard_url}/play/{duel.game_id}/move"
        assert tab.page.evaluate(post, [url, form]) == 200  # 303, followed
        after = ledger.load(duel.game_id).version
        assert after > before
        assert tab.page.evaluate(post, [url, form]) == 200
        assert ledger.load(duel.game_id).version == after
        # another command id for the move at the old version: the game moved on
        again = {**form, "command_id": "00000000-0000-4000-8000-000000000001"}
        assert tab.page.evaluate(post, [url, again]) == 409
        assert ledger.load(duel.game_id).version == after
    finally:
        tab.context.close()


def test_a_draw_is_offered_and_accepted_and_a_game_resigned_by_clicks(
    ledger, dashboard_url, browser
):
    game = ledger.create_game("vaalbara", {"players": 2})
    tabs = [
        open_seat(browser, mint(dashboard_url, t.token, game.game_id), t.seats)
        for t in game.tokens
    ]
    try:
        head = ledger.load(game.game_id)
        [mover] = [t for t in tabs if head.to_act()[0] in t.seats]
        [other] = [t for t in tabs if t is not mover]
        # the referee allows an offer on one's own turn only: no button is a promise
        mover.page.get_by_role("button", name="Offer a draw").click()
        wait_for_version(other, head.version + 1)
        other.page.locator(".game-controls p", has_text="offers a draw").wait_for()
        other.page.get_by_role("button", name="Accept the draw").click()
        for tab in tabs:
            tab.page.locator(".play-state[data-ended=yes]").wait_for()
        assert ledger.load(game.game_id).outcome.termination == "agreed"
    finally:
        for tab in tabs:
            tab.context.close()
    resigned = ledger.create_game("vaalbara", {"players": 2})
    seat = resigned.tokens[0]
    tab = open_seat(
        browser, mint(dashboard_url, seat.token, resigned.game_id), seat.seats
    )
    try:
        tab.page.get_by_text("Resign…").click()
        tab.page.get_by_role("button", name="Resign this game").click()
        tab.page.locator(".play-state[data-ended=yes]").wait_for()
        outcome = ledger.load(resigned.game_id).outcome
        assert (
            outcome.termination == "resigned" and seat.seats[0] not in outcome.winners
        )
    finally:
        tab.context.close()


@pytest.mark.parametrize("game_type", ["thalara", "terralore"])
def test_each_seat_sees_its_own_view_and_not_the_others(
    ledger, dashboard_url, browser, game_type
):
    """The board on a seat's page is that seat's view, word for word: never
    the full state, never another seat's hand."""
    import xml.etree.ElementTree as ET

    from domain.contract.core import ADMIN, Viewer
    from domain.words.board_html import board
    from services.dashboard.frame_words import names_of

    game = ledger.create_game(game_type, {"players": 2})
    head = ledger.load(game.game_id)
    ruleset, names = head.ruleset, names_of(head)

    def words(html: str) -> str:
        return " ".join("".join(ET.fromstring(f"<r>{html}</r>").itertext()).split())

    everything = words(board(ruleset, ruleset.view(head.state, ADMIN), names))
    for seat in game.tokens:
        tab = open_seat(
            browser, mint(dashboard_url, seat.token, game.game_id), seat.seats
        )
        try:
            shown = tab.page.locator("#play-state .board-slot").inner_html()
        finally:
            tab.context.close()
        own = board(
            ruleset, ruleset.view(head.state, Viewer.player(*seat.seats)), names
        )
        assert words(shown) == words(own)
        assert (
            words(shown) != everything
        )  # the admin sees the other hand: this one does not
