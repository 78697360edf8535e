"""A running game's replay opens at its latest event; a finished one at the
first (a replay to step through); ``?v=`` still picks any event."""

from __future__ import annotations

import random
import re
import urllib.request
from typing import Any

from ledger.v1 import game_service_pb2 as pb
from tests.e2e.client import create, play_one, play_to_end


def _start(url: str) -> tuple[int, int]:
    with urllib.request.urlopen(url, timeout=30) as response:
        html = response.read().decode()
    section = re.search(r'<section id="replay"[^>]*>', html)
    assert section, html[:500]
    numbers = dict(re.findall(r'data-(head|start)="(\d+)"', section.group(0)))
    return int(numbers["start"]), int(numbers["head"])


def test_a_running_game_opens_at_its_latest_event(
    grpc_server: Any, dashboard_url: str
) -> None:
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    rnd = random.Random(3)
    for _ in range(4):
        play_one(grpc_server, table, rnd)
    version = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), grpc_server.admin_token
    ).game.version
    start, head = _start(f"{dashboard_url}/games/{table.game_id}")
    assert head == version > 1 and start == head
    assert _start(f"{dashboard_url}/games/{table.game_id}?v=2")[0] == 2


def test_a_finished_game_opens_at_its_first_event(
    grpc_server: Any, dashboard_url: str
) -> None:
    table = create(grpc_server, "terralore", players=2)
    play_to_end(grpc_server, table, seed=2)
    start, head = _start(f"{dashboard_url}/games/{table.game_id}")
    assert start == 1 and head > 1
