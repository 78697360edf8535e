"""No hidden information on any dashboard page, page source, fetched JSON or SSE stream.

For a running game of every type, watched as a spectator in the browser: the
hidden strings are everything the admin can see (the full state, the event
hashes) that an anonymous ``ReplayService`` caller cannot; none of them may
appear in the replay page's DOM, in any response the page fetched, in the
tournament page and its SSE stream while the tournament's game is running.
The summary pages (home, statistics, fairness, leaderboards) name cards of
other, finished games, so for them the check is a differential: they must not
change at all while a running game moves on.
"""

from __future__ import annotations

import random
import re
import urllib.request
import uuid
from typing import Any

import httpx
import pytest
from google.protobuf import json_format
from pydantic import TypeAdapter

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from ledger.v1 import read_service_pb2_grpc as rrpc
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.api.client import Table, play_one
from tests.e2e.client import create, thalara_in_play

pytestmark = pytest.mark.e2e
GAMES = [
    ("terralore", {"players": 2}),
    ("vaalbara", {"players": 3}),
    ("thorgal", {"players": 2}),
]


def strings(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for item in value.values():
            strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            strings(item, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def frames(server: Any, game_id: str, token: str | None) -> list[dict[str, Any]]:
    replay = rrpc.ReplayServiceStub(server.channel)
    md = (("authorization", f"Bearer {token}"),) if token else None
    listed = replay.ListFrames(
        rpb.ListFramesRequest(game_id=game_id, page_size=500), metadata=md
    )
    return [json_format.MessageToDict(f) for f in listed.frames]


def hidden_strings(server: Any, ledger: Any, game_id: str) -> set[str]:
    """What the admin sees of this running game and an anonymous caller does not."""
    state = ledger.load(uuid.UUID(game_id)).state
    admin = strings(TypeAdapter(type(state)).dump_python(state, mode="json"), set())
    strings(frames(server, game_id, server.admin_token), admin)
    public = strings(frames(server, game_id, None), set())
    return {s for s in admin - public if len(s) >= 2}


def leaked(texts: list[str], hidden: set[str]) -> set[str]:
    """Hidden strings found as whole tokens (not inside a longer id) in ``texts``."""
    found = set()
    for secret in hidden:
        pattern = re.compile(rf"(?<![\w@-]){re.escape(secret)}(?![\w@-])")
        if any(pattern.search(text) for text in texts):
            found.add(secret)
    return found


def running(server: Any, game_type: str, setup: dict[str, Any]) -> Table:
    if game_type == "thalara":
        return thalara_in_play(server)  # both secret hands chosen
    for attempt in range(10):  # a random move may end the game (a concession)
        table = create(server, game_type, **setup)
        rnd = random.Random(attempt)
        for _ in range(6):
            if play_one(server, table, rnd) is None:
                break
        game = server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
        if game.status == "active":
            return table
    raise AssertionError(f"no {game_type} game was still running after 6 moves")


def get(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode()


@pytest.mark.parametrize(
    "game_type,setup",
    [("thalara", {}), *GAMES],
    ids=["thalara", *[g for g, _ in GAMES]],
)
def test_a_spectator_sees_no_hidden_card_of_a_running_game_anywhere(
    grpc_server: Any,
    ledger: Any,
    dashboard_url: str,
    page: Any,
    game_type: str,
    setup: Any,
) -> None:
    table = running(grpc_server, game_type, setup)
    hidden = hidden_strings(grpc_server, ledger, table.game_id)
    assert len(hidden) >= 5, "nothing hidden: the test would prove nothing"

    fetched: list[str] = []
    page.on(
        "response", lambda r: fetched.append(r.text()) if "/frames" in r.url else None
    )
    page.goto(f"{dashboard_url}/games/{table.game_id}")
    head = page.locator("#replay").get_attribute("data-head")
    # a running game opens at its latest event; step to the first and back
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{head}'"
    )
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.getElementById('replay').dataset.shown === '1'"
    )
    page.keyboard.press("End")
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.shown === '{head}'"
    )
    assert fetched, "the viewer fetched no frames"
    assert "hash" not in page.locator("#frame-meta").inner_text()
    assert not leaked([page.content(), *fetched], hidden)
    # and the check itself sees a leak when there is one
    admin_view = frames(grpc_server, table.game_id, grpc_server.admin_token)
    assert leaked([str(admin_view)], hidden)
    # audit and export open only when the game has ended
    for method, path in (("POST", "audit"), ("GET", "export.ndjson")):
        refused = httpx.request(method, f"{dashboard_url}/games/{table.game_id}/{path}")
        assert refused.status_code == 403


def settle(server: Any, ledger: Any, game_type: str) -> None:
    """Wait until every view has processed the whole log so far."""
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT max(notification_id) AS head FROM ledger_events")
        head = curs.fetchone()["head"]
    rrpc.StatsServiceStub(server.channel).GetFairness(
        rpb.GetFairnessRequest(game_type=game_type, min_log_position=head), timeout=30
    )


@pytest.mark.parametrize(
    "game_type,setup",
    [("thalara", {}), *GAMES],
    ids=["thalara", *[g for g, _ in GAMES]],
)
def test_the_summary_pages_do_not_change_while_a_running_game_moves_on(
    grpc_server: Any, ledger: Any, dashboard_url: str, game_type: str, setup: Any
) -> None:
    """Home, statistics, fairness and leaderboard pages are byte-identical before
    and after a running game's hidden events (its opening shuffles, later draws),
    once the views have processed them: a spectator cannot diff a deck order out
    of them.  A game that ends meanwhile changes them legitimately; then the
    check starts over with a new game."""

    def pages(*paths: str) -> dict[str, str]:
        settle(grpc_server, ledger, game_type)
        return {path: get(f"{dashboard_url}{path}") for path in paths}

    summaries = (f"/fairness/{game_type}", f"/leaderboards/{game_type}")
    for attempt in range(10):
        before = pages(*summaries)
        if game_type == "thalara":
            table = thalara_in_play(grpc_server)  # shuffles and secret hands
        else:
            table = create(grpc_server, game_type, **setup)  # opening shuffles
        middle = pages(*summaries, "/", f"/stats/{game_type}")
        for path in summaries:
            assert middle[path] == before[path], f"{path} changed with a new game"
        rnd = random.Random(attempt)
        for _ in range(3):
            if play_one(grpc_server, table, rnd) is None:
                break
        game = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id))
        if game.game.status != "active":
            continue  # it ended: its conclusion may show; try another game
        after = pages(*middle)
        for path in middle:
            assert after[path] == middle[path], f"{path} changed with a running game"
        return
    pytest.fail(f"no {game_type} game stayed running for 3 moves in 10 tries")


def test_a_tournament_page_and_its_sse_stream_reveal_nothing_of_a_running_game(
    grpc_server: Any, ledger: Any, dashboard_url: str
) -> None:
    stub = trpc.TournamentServiceStub(grpc_server.channel)
    created = stub.CreateTournament(
        tpb.CreateTournamentRequest(
            name="leak check",
            game_type="thalara",
            format="round_robin",
            table_size=2,
            setup_json='{"mode": "standard", "characters": ["myrja", "canto"]}',
        ),
        metadata=(("authorization", f"Bearer {grpc_server.admin_token}"),),
    )
    tid, organiser = created.tournament.tournament_id, created.organiser_token
    md = (("authorization", f"Bearer {organiser}"),)
    tokens = {}
    for player in ("pia", "quin"):
        tokens[player] = stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=player), metadata=md
        ).player_token
    (game,) = stub.StartRound(
        tpb.StartRoundRequest(tournament_id=tid), metadata=md
    ).tables
    seats = {}
    for seat, player in enumerate(game.players):
        mine = stub.GetMyGames(
            tpb.GetMyGamesRequest(tournament_id=tid),
            metadata=(("authorization", f"Bearer {tokens[player]}"),),
        )
        seats[seat] = mine.games[0].seat_token
    table, rnd = Table(game.game_id, seats, None), random.Random(3)
    for _ in range(4):  # Thalara's hand selection: no concession yet
        assert play_one(grpc_server, table, rnd) is not None
    hidden = hidden_strings(grpc_server, ledger, game.game_id)
    assert len(hidden) >= 5

    html = get(f"{dashboard_url}/tournaments/{tid}")
    assert f"/games/{game.game_id}" in html
    with httpx.stream(
        "GET", f"{dashboard_url}/tournaments/{tid}/live", timeout=10
    ) as sse:
        first = ""
        for line in sse.iter_lines():
            first += line + "\n"
            if line == "" and "event: standings" in first:
                break
    assert "event: standings" in first and "pia" in first
    assert not leaked([html, first], hidden)
