"""The dashboard in a real browser, after a real Swiss tournament played over gRPC.

Six players, three Swiss rounds of Thalara.  The page's standings must equal
``GetStandings``; the last results must reach an open page by Server-Sent
Events (no reload); the leaderboard and a player's rating chart must equal the
RatingService numbers.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest

from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rrpc
from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from services.api.client import Table, play_one
from tests.e2e.dashboard import screenshot
from tests.e2e.leak_probe import log_head

pytestmark = pytest.mark.e2e
PLAYERS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def auth(token: str) -> Any:
    return (("authorization", f"Bearer {token}"),)


class Swiss:
    """A Swiss tournament driven over gRPC like a club organiser and players would."""

    def __init__(self, server: Any, ledger: Any) -> None:
        self.server = server
        self.ledger = ledger
        self.stub = rpc.TournamentServiceStub(server.channel)
        created = self.stub.CreateTournament(
            pb.CreateTournamentRequest(
                name="Friday Swiss",
                game_type="thalara",
                format="swiss",
                rounds=3,
                table_size=2,
                setup_json='{"mode": "standard", "characters": ["myrja", "canto"]}',
            ),
            metadata=auth(server.admin_token),
        )
        self.tid = created.tournament.tournament_id
        self.organiser = created.organiser_token
        tag = uuid.uuid4().hex[:4]
        self.players = [f"{name}-{tag}" for name in PLAYERS]
        self.tokens = {
            p: self.stub.RegisterPlayer(
                pb.RegisterPlayerRequest(tournament_id=self.tid, player_id=p),
                metadata=auth(self.organiser),
            ).player_token
            for p in self.players
        }
        self.position = 0

    def start_round(self) -> Any:
        return self.stub.StartRound(
            pb.StartRoundRequest(tournament_id=self.tid), metadata=auth(self.organiser)
        )

    def play(self, table: Any, seed: int) -> None:
        """Each seat plays with the seat token it fetched with GetMyGames."""
        tokens = {}
        for seat, player in enumerate(table.players):
            mine = self.stub.GetMyGames(
                pb.GetMyGamesRequest(tournament_id=self.tid),
                metadata=auth(self.tokens[player]),
            )
            (game,) = [g for g in mine.games if g.game_id == table.game_id]
            tokens[seat] = game.seat_token
        game_table, rnd = Table(table.game_id, tokens, None), random.Random(seed)
        while play_one(self.server, game_table, rnd) is not None:
            self.position = log_head(self.ledger)

    def standings(self) -> Any:
        return self.stub.GetStandings(
            pb.GetStandingsRequest(
                tournament_id=self.tid, min_log_position=self.position
            ),
            timeout=30,
        )


def page_standings(page: Any) -> list[tuple[str, int, float, float, int]]:
    rows = page.locator("#standings tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td, th").all_inner_texts()
        out.append(
            (
                cells[1].split(" ")[0],
                int(cells[0]),
                float(cells[2]),
                float(cells[3]),
                int(cells[4]),
            )
        )
    return out


def grpc_standings(standings: Any) -> list[tuple[str, int, float, float, int]]:
    return [
        (r.player_id, r.rank, round(r.points, 1), round(r.buchholz, 1), r.played)
        for r in standings.rows
    ]


def test_a_swiss_tournament_page_follows_get_standings_live_and_ratings_match(
    grpc_server: Any, dashboard_url: str, page: Any, ledger: Any
) -> None:
    swiss = Swiss(grpc_server, ledger)
    for number in (1, 2):
        for table in swiss.start_round().tables:
            swiss.play(table, number * 10 + table.table)
        assert swiss.standings().round == number
    last = swiss.start_round()
    assert len(last.tables) == 3
    for table in last.tables[:-1]:
        swiss.play(table, 30 + table.table)
    before = swiss.standings()
    assert before.status != "finished"

    # (2) the page's standings equal GetStandings
    page.goto(f"{dashboard_url}/tournaments/{swiss.tid}")
    assert page_standings(page) == grpc_standings(before)
    assert page.locator("h1").inner_text() == "Friday Swiss"
    pairings = page.locator("table.pairings")
    assert pairings.count() == 3  # one table per round
    finished_links = page.locator("table.pairings a", has_text="#")
    assert finished_links.count() == 2 + 3 + 3
    href = finished_links.first.get_attribute("href")
    assert href is not None and href.startswith("/games/")
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1"
    )

    # (3) the last result reaches the open page without a reload
    page.evaluate("window.notReloaded = true")
    swiss.play(last.tables[-1], 33)
    final = swiss.standings()
    assert final.status == "finished"
    page.wait_for_selector("#status[data-status='finished']", timeout=30_000)
    assert page.evaluate("window.notReloaded") is True
    assert page_standings(page) == grpc_standings(final)
    assert page.locator("table.pairings a", has_text="#").count() == 9
    screenshot(page, "tournament")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth + 1"
    )  # usable at phone width: wide tables scroll in their own box
    screenshot(page, "tournament-phone", full_page=False)
    page.set_viewport_size({"width": 1200, "height": 900})

    # (4) leaderboard and a player's rating chart equal the RatingService numbers
    ratings = rrpc.RatingServiceStub(grpc_server.channel)
    board = ratings.GetLeaderboard(
        rpb.GetLeaderboardRequest(
            game_type="thalara", page_size=100, min_log_position=swiss.position
        ),
        timeout=30,
    )
    page.goto(f"{dashboard_url}/leaderboards/thalara")
    rows = page.locator("#leaderboard tbody tr")
    shown = [
        (
            rows.nth(i).get_attribute("data-player"),
            rows.nth(i).locator("td.ordinal").inner_text(),
            rows.nth(i).locator("td.games").inner_text(),
        )
        for i in range(rows.count())
    ]
    assert shown == [
        (r.player_id, f"{r.ordinal:,.3f}", str(r.games)) for r in board.ratings
    ]
    ours = [r for r in board.ratings if r.player_id in swiss.players]
    assert len(ours) == 6 and all(r.games == 3 for r in ours)
    screenshot(page, "leaderboard")

    player = swiss.players[0]
    history = ratings.GetRatingHistory(
        rpb.GetRatingHistoryRequest(game_type="thalara", player_id=player),
        timeout=30,
    )
    page.goto(f"{dashboard_url}/players/thalara/{player}")
    page.wait_for_function("() => document.getElementById('rating-chart').chart")
    chart = page.evaluate(
        "() => { const c = document.getElementById('rating-chart').chart;"
        " return {ordinal: c.data.datasets[0].data, mu: c.data.datasets[1].data} }"
    )
    assert chart["ordinal"] == [round(c.ordinal, 3) for c in history.changes]
    assert chart["mu"] == [round(c.mu, 3) for c in history.changes]
    links = page.locator("#rating-table tbody a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        f"/games/{c.game_id}?v={c.event_version}" for c in reversed(history.changes)
    ]
    screenshot(page, "player")
    # each point links to the game that moved the rating
    box = page.locator("#rating-chart").bounding_box()
    point = page.evaluate(
        "() => { const c = document.getElementById('rating-chart').chart;"
        " const p = c.getDatasetMeta(0).data[0]; return {x: p.x, y: p.y} }"
    )
    page.mouse.click(box["x"] + point["x"], box["y"] + point["y"])
    page.wait_for_url(f"**/games/{history.changes[0].game_id}?v=*")
