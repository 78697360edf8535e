"""A tournament with automatic rounds shows, in a real browser, when its next
round starts and counts down to it; the round starting by itself (the
server's round scheduler) replaces the countdown with the round's pairings,
pushed to the open page."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from tests.support.server import wait_until

pytestmark = pytest.mark.e2e
GAP = 8


def auth(token: str) -> Any:
    return (("authorization", f"Bearer {token}"),)


def test_the_tournament_page_counts_down_to_the_next_round(
    grpc_server: Any, dashboard_url: str, page: Any
) -> None:
    stub = rpc.TournamentServiceStub(grpc_server.channel)
    admin = auth(grpc_server.admin_token)
    created = stub.CreateTournament(
        pb.CreateTournamentRequest(
            name="Automatic Swiss",
            game_type="terralore",
            format="swiss",
            rounds=2,
            table_size=2,
            automatic_rounds=pb.AutomaticRounds(gap_seconds=GAP),
        ),
        metadata=admin,
    )
    tid = created.tournament.tournament_id
    assert created.tournament.automatic_rounds.gap_seconds == GAP
    for player in ("kim", "lee"):
        stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=tid, player_id=player),
            metadata=admin,
        )
    (table,) = stub.StartRound(
        pb.StartRoundRequest(tournament_id=tid), metadata=admin
    ).tables
    page.goto(f"{dashboard_url}/tournaments/{tid}")
    assert (
        page.locator("#next-round")
        .inner_text()
        .startswith("Rounds start by themselves")
    )

    grpc_server.call(
        "Adjudicate",
        gpb.AdjudicateRequest(game_id=table.game_id, ranks=[1, 2], reason="quick"),
        grpc_server.admin_token,
    )
    wait_until(
        lambda: stub.GetTournament(pb.GetTournamentRequest(tournament_id=tid)).HasField(
            "next_round_at"
        ),
        "the round's result was not recorded",
    )
    due = stub.GetTournament(
        pb.GetTournamentRequest(tournament_id=tid)
    ).next_round_at.ToDatetime(tzinfo=UTC)
    countdown = page.locator("#next-round [data-countdown]")
    countdown.wait_for(timeout=10_000)  # pushed to the open page
    assert "Round 2 starts by itself" in page.locator("#next-round").inner_text()
    first = countdown.inner_text()
    assert re.fullmatch(r"in 0:0\d", first), first
    left = int(first.split(":")[1])
    assert abs(left - (due - datetime.now(UTC)).total_seconds()) <= 2
    time.sleep(2.1)
    assert int(countdown.inner_text().split(":")[1]) < left  # it counts down

    # the server starts round 2 by itself; the page drops the countdown
    countdown.wait_for(state="detached", timeout=(GAP + 10) * 1000)
    summary = stub.GetTournament(pb.GetTournamentRequest(tournament_id=tid))
    assert summary.current_round == 2 and not summary.HasField("next_round_at")
    assert page.locator("h3", has_text="Round 2").count() == 1
    assert (
        page.locator("#next-round")
        .inner_text()
        .startswith("Rounds start by themselves")
    )
