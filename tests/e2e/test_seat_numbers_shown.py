"""Seat 0 resigns; every surface a person reads says "seat 1" (or the name).

The planted game: a 2-player Thalara game without player names, where the
first seat (0 in the API) makes moves and then resigns.  ``ledger games
show``, ``ledger replay`` and the dashboard's game page and frames must
name it "seat 1" and never say "seat 0".
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from typing import Any

import pytest
from typer.testing import CliRunner

from ledger.v1 import game_service_pb2 as pb
from services.api.client import create, play_one

ZERO = re.compile(r"\bseats? 0\b")


@pytest.fixture
def resigned(grpc_server: Any) -> str:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    rnd = random.Random(4)
    for _ in range(4):
        play_one(grpc_server, table, rnd)
    grpc_server.call(
        "Resign", pb.ResignRequest(game_id=table.game_id, seat=0), table.tokens[0]
    )
    return str(table.game_id)


def _cli(*args: str) -> str:
    from services.cli import app

    result = CliRunner().invoke(app, list(args), terminal_width=300)
    assert result.exit_code == 0, result.output
    return result.output


def test_games_show_and_replay_count_seats_from_one(
    grpc_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, resigned: str
) -> None:
    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))
    shown = _cli("games", "show", resigned)
    people = shown.split("the admin view, as the API gives it")[0]
    assert "seat 1 resigned" in people and "seat 2 wins" in people, people
    assert "ranks: seat 1 2, seat 2 1" in people
    assert not ZERO.search(people), people
    target = f"127.0.0.1:{grpc_server.port}"
    told = _cli(
        "replay", resigned, "--token", grpc_server.admin_token, "--target", target
    )
    assert "seat 1 resigns." in told and not ZERO.search(told), told


def test_the_dashboard_counts_seats_from_one(dashboard_url: str, resigned: str) -> None:
    with urllib.request.urlopen(f"{dashboard_url}/games/{resigned}", timeout=30) as r:
        page = r.read().decode()
    assert "seat 2" in page and not ZERO.search(page)
    url = f"{dashboard_url}/games/{resigned}/frames?after=0&limit=200"
    with urllib.request.urlopen(url, timeout=30) as r:
        frames = json.loads(r.read())["frames"]
    sentences = [f["sentence"] for f in frames]
    assert "seat 1 resigns." in sentences, sentences
    assert not any(ZERO.search(s) for s in sentences), sentences
    actors = [f.get("actor") for f in frames if f.get("actor")]
    assert actors and not any(ZERO.search(a) for a in actors), actors
