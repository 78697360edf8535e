"""The dashboard's small rough edges: plurals, the favicon, the audit's receipts
row, a hint on tables wider than a phone, and a closed registration in words."""

from __future__ import annotations

import re
import uuid
from typing import Any

import grpc
import httpx
import pytest

from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from tests.e2e.client import create, play_to_end

pytestmark = pytest.mark.e2e


def auth(token: str) -> Any:
    return (("authorization", f"Bearer {token}"),)


def tournament(
    server: Any, players: int, name: str = "p"
) -> tuple[Any, str, str, list[str]]:
    stub = trpc.TournamentServiceStub(server.channel)
    created = stub.CreateTournament(
        tpb.CreateTournamentRequest(
            name="Edges",
            game_type="terralore",
            format="swiss",
            rounds=1,
            table_size=2,
        ),
        metadata=auth(server.admin_token),
    )
    tid = created.tournament.tournament_id
    names = [f"{name}{i}-{uuid.uuid4().hex[:4]}" for i in range(players)]
    for player in names:
        stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=player),
            metadata=auth(created.organiser_token),
        )
    return stub, tid, created.organiser_token, names


def test_one_player_is_a_player_not_players(
    grpc_server: Any, dashboard_url: str
) -> None:
    _, tid, _, _ = tournament(grpc_server, 1)
    html = httpx.get(f"{dashboard_url}/tournaments/{tid}").text
    assert "1 player<" in html or "1 player " in html
    assert "1 players" not in html


def test_the_favicon_is_served_and_every_page_links_it(
    dashboard_url: str, page: Any
) -> None:
    icon = httpx.get(f"{dashboard_url}/favicon.ico", follow_redirects=True)
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/")
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(f"{dashboard_url}/")
    page.wait_for_load_state("networkidle")
    assert not missing
    assert page.locator("link[rel=icon]").count() == 1


def test_the_audit_badge_counts_the_receipts_it_checked(
    grpc_server: Any, dashboard_url: str
) -> None:
    table = create(grpc_server, "terralore", players=2)
    play_to_end(grpc_server, table, seed=3)
    html = httpx.post(f"{dashboard_url}/games/{table.game_id}/audit").text
    assert "Audit OK" in html
    assert "✔ receipts" in html
    found = re.search(r"(\d+) receipts checked", html)
    assert found and int(found.group(1)) > 0


def test_registering_after_a_round_started_says_so_in_words(
    grpc_server: Any,
) -> None:
    stub, tid, organiser, _ = tournament(grpc_server, 2)
    stub.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth(organiser))
    with pytest.raises(grpc.RpcError) as refused:
        stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id="late"),
            metadata=auth(organiser),
        )
    message = refused.value.details() or ""
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "illegal move" not in message and "tournament." not in message
    assert message == "registration is closed: round 1 has started"


CENTRES = """(table) => {
  const centre = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const box = range.getBoundingClientRect();
    return box.left + box.width / 2;
  };
  const [head, ...rows] = [...table.rows];
  const worst = [];
  for (let c = 1; c < head.cells.length; c++)
    worst.push(Math.abs(centre(head.cells[c]) - centre(rows[0].cells[c])));
  return Math.max(...worst);
}"""


def test_head_to_head_headers_sit_over_their_columns(
    grpc_server: Any, dashboard_url: str, page: Any
) -> None:
    _, tid, _, _ = tournament(grpc_server, 4)
    page.goto(f"{dashboard_url}/tournaments/{tid}")
    table = page.locator("table.h2h")
    assert table.locator("thead th").count() == 5
    assert table.evaluate(CENTRES) <= 2  # pixels between a header and its cells


def test_a_table_wider_than_a_phone_says_it_scrolls(
    grpc_server: Any, dashboard_url: str, page: Any
) -> None:
    _, tid, _, _ = tournament(grpc_server, 6, name="a-rather-long-player-name-")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{dashboard_url}/tournaments/{tid}")
    page.wait_for_load_state("networkidle")
    boxes = page.locator(".scroll")
    wide = 0
    for i in range(boxes.count()):
        box = boxes.nth(i)
        overflows = box.evaluate("(b) => b.scrollWidth > b.clientWidth + 1")
        hint = page.locator(f"#{box.get_attribute('id')}-hint")
        wide += overflows
        assert hint.is_visible() == overflows
        if overflows:
            assert "scroll sideways" in hint.inner_text().lower()
    assert wide, "no table overflowed at 390 px: the test would prove nothing"
