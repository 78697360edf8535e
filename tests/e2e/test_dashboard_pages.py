"""Home, statistics and fairness pages in a real browser; errors; `ledger serve --http`."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
import uuid
from typing import Any

import httpx
import pytest

from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rrpc
from tests.e2e.client import create, play_to_end
from tests.e2e.dashboard import screenshot
from tests.support.server import ledger_serve, wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def finished(grpc_server: Any) -> None:
    """A few finished games, so every statistic has rows, seen by the views."""
    for seed, players in enumerate((("uma", "vic"), ("vic", "wes"), ("wes", "uma"))):
        table = create(
            grpc_server,
            "thalara",
            players=2,
            characters=["myrja", "canto"],
            player_ids=players,
        )
        play_to_end(grpc_server, table, seed=seed)
    play_to_end(grpc_server, create(grpc_server, "terralore", players=2), seed=1)
    stats = rrpc.StatsServiceStub(grpc_server.channel)
    wait_until(
        lambda: (
            stats.GetGameTypeStats(
                rpb.GetGameTypeStatsRequest(game_type="thalara")
            ).finished
            >= 3
        ),
        "the stats view did not see the finished games",
    )


def no_horizontal_scroll(page: Any) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def test_home_lists_games_per_type_and_links_to_them(
    grpc_server: Any, finished: None, dashboard_url: str, page: Any
) -> None:
    page.goto(dashboard_url + "/")
    cards = page.locator("section.card")
    assert cards.count() == 4
    thalara = page.locator("section.card", has=page.locator("#gt-thalara"))
    counts = rrpc.StatsServiceStub(grpc_server.channel).GetGameTypeStats(
        rpb.GetGameTypeStatsRequest(game_type="thalara")
    )
    started = thalara.locator("dl.headline div", has_text="started").locator("dd")
    assert started.inner_text() == str(counts.started)
    first = thalara.locator("a[href^='/games/']").first
    first.click()
    page.wait_for_url("**/games/*")
    assert page.locator("#replay").count() == 1
    page.goto(dashboard_url + "/")
    screenshot(page, "home")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert no_horizontal_scroll(page)
    screenshot(page, "home-phone")


def test_statistics_match_stats_service_with_wilson_intervals_and_labelled_charts(
    grpc_server: Any, finished: None, dashboard_url: str, page: Any
) -> None:
    stats = rrpc.StatsServiceStub(grpc_server.channel).GetGameTypeStats(
        rpb.GetGameTypeStatsRequest(game_type="thalara")
    )
    page.goto(dashboard_url + "/stats/thalara")
    rows = page.locator("#by-seat tbody tr")
    shown = [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]
    assert [(int(r[0]), int(r[1])) for r in shown] == [
        (s.games, s.wins) for s in stats.by_seat
    ]
    for r in shown:  # "a% – b%" around the rate
        low, high = (float(x.strip(" %")) for x in r[3].split("–"))
        assert low <= float(r[2].strip("%")) <= high
    canvases = page.locator("canvas")
    assert canvases.count() >= 5
    page.wait_for_function(
        "() => [...document.querySelectorAll('canvas')].every((c) => c.chart)"
    )
    for i in range(canvases.count()):
        assert canvases.nth(i).get_attribute("role") == "img"
        assert len(canvases.nth(i).get_attribute("aria-label") or "") > 20
    assert page.locator("#freq-card_played, [id^='freq-']").count() >= 1
    screenshot(page, "stats")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert no_horizontal_scroll(page)


def test_fairness_matches_get_fairness(
    grpc_server: Any, finished: None, dashboard_url: str, page: Any
) -> None:
    fits = (
        rrpc.StatsServiceStub(grpc_server.channel)
        .GetFairness(rpb.GetFairnessRequest(game_type="thalara"))
        .fits
    )
    assert fits
    page.goto(dashboard_url + "/fairness/thalara")
    rows = page.locator("#fairness tbody tr")
    shown = [
        (
            rows.nth(i).locator("th").inner_text(),
            rows.nth(i).locator("td").last.inner_text(),
        )
        for i in range(rows.count())
    ]
    assert shown == [(f.distribution, f"{f.p_value:.4f}") for f in fits]
    screenshot(page, "fairness")


def test_bad_addresses_get_clear_http_errors(dashboard_url: str) -> None:
    cases = {
        "/games/not-a-game": 400,
        f"/games/{uuid.uuid4()}": 404,
        f"/games/{uuid.uuid4()}/frames": 404,
        "/games/" + str(uuid.uuid4()) + "/frames?after=-1": 400,
        f"/games/{uuid.uuid4()}/frames/3": 404,
        f"/games/{uuid.uuid4()}/frames/0": 400,
        f"/games/{uuid.uuid4()}/frames/last": 400,
        "/stats/chess": 404,
        f"/tournaments/{uuid.uuid4()}": 404,
        "/tournaments/x": 400,
        "/nowhere": 404,
        "/?min_log_position=soon": 400,
        # past the log's head: answered as of the head, not refused (a
        # refusal would tell anyone where the head is)
        f"/stats/thalara?min_log_position={2**62}": 200,
    }
    for path, status in cases.items():
        response = httpx.get(dashboard_url + path)
        assert response.status_code == status, path
        assert "Traceback" not in response.text


def test_ledger_serve_serves_the_dashboard_on_http(settings: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"LEDGER_DATABASE_URL": settings.database_url, "LEDGER_ADMIN_TOKEN": "x" * 32}
    with (
        ledger_serve(env, "--http", f"127.0.0.1:{port}"),
        urllib.request.urlopen(f"http://127.0.0.1:{port}/") as response,
    ):
        assert response.status == 200
        assert "Games and tournaments" in response.read().decode()
    with ledger_serve(env, "--http", "off"), pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=3)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ledger_serve_refuses_a_taken_dashboard_port_in_one_line(settings: Any) -> None:
    import os
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "services.cli",
                "serve",
                "--listen",
                f"127.0.0.1:{_free_port()}",
                "--http",
                f"127.0.0.1:{port}",
            ],
            env={
                **os.environ,
                "LEDGER_DATABASE_URL": settings.database_url,
                "LEDGER_ADMIN_TOKEN": "x" * 32,
                "LEDGER_PROJECTIONS": "false",
            },
            capture_output=True,
            check=False,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        (
            f"the dashboard cannot listen on 127.0.0.1:{port}: Address already in use;"
            " set LEDGER_HTTP_LISTEN / --http to another address, or 'off'"
        )
    ]


def test_ledger_dashboard_serves_the_pages_on_its_own(settings: Any) -> None:
    import os
    import subprocess
    import sys

    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "services.cli",
            "dashboard",
            "--http",
            f"127.0.0.1:{port}",
        ],
        env={**os.environ, "LEDGER_DATABASE_URL": settings.database_url},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:

        def up() -> bool:
            try:
                return (
                    httpx.get(f"http://127.0.0.1:{port}/leaderboards").status_code
                    == 200
                )
            except httpx.TransportError:
                return proc.poll() is not None  # stop waiting if it died

        wait_until(up, "ledger dashboard did not start", timeout=60)
        assert proc.poll() is None
        assert "Leaderboards" in httpx.get(f"http://127.0.0.1:{port}/leaderboards").text
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert proc.returncode in (0, -15)
