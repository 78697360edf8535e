"""Item: an acceptance client in another language plays every game through reflection.

``clients/node/play.mjs`` has no .proto file and no rules: it reads the API
and every game's messages through reflection v1, takes the example setups
from ``ListGameTypes`` and plays each to its end with random legal moves.
Skipped only where Node is not installed; ``.ci/run`` runs ``npm ci`` first
(the test does it too if ``node_modules`` is missing).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed"),
]

CLIENT = Path(__file__).resolve().parents[3] / "clients" / "node"


def _game_types(target: str) -> list[pb.GameType]:
    with grpc.insecure_channel(target) as channel:
        return list(
            pb_grpc.GameServiceStub(channel)
            .ListGameTypes(pb.ListGameTypesRequest(), timeout=30)
            .game_types
        )


def test_the_node_client_plays_every_example_setup_to_its_end(fresh_server):
    if not (CLIENT / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--no-audit"], cwd=CLIENT, check=True, timeout=300)
    done = subprocess.run(
        ["node", "play.mjs", fresh_server.target],
        check=False,
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]
    types = _game_types(fresh_server.target)
    expected = {
        t.name: sum(len(p.example_setups) for p in t.content_packs) for t in types
    }
    assert sorted(summary["game_types"]) == sorted(expected)
    assert summary["played"] == sum(expected.values()) == len(games)
    assert summary["built_setups"] == sum(len(t.content_packs) for t in types)
    for name, count in expected.items():
        assert count >= 1
        assert sum(1 for g in games if g["game_type"] == name) == count
    assert all(
        g["moves"] > 0 and g["termination"].startswith("TERMINATION_") for g in games
    )


def test_the_node_client_reads_clocks_and_resigns(fresh_server):
    if not (CLIENT / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--no-audit"], cwd=CLIENT, check=True, timeout=300)
    done = subprocess.run(
        ["node", "referee.mjs", fresh_server.target],
        check=False,
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert len(shown["clocks_ms"]) == 2
    assert all(0 < ms <= 300_000 for ms in shown["clocks_ms"])
    assert "clock.running" in shown["early_claim"]
    assert shown["events"] == ["ledger.SeatResigned", "ledger.GameConcluded"]
    assert shown["termination"] == "TERMINATION_RESIGNED"
    assert shown["winners"] == [1]


def test_the_node_client_plays_a_game_over_seat_sessions(fresh_server):
    """``clients/node/session.mjs``: one stream per seat, from reflection alone."""
    if not (CLIENT / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--no-audit"], cwd=CLIENT, check=True, timeout=300)
    done = subprocess.run(
        ["node", "session.mjs", fresh_server.target, "terralore"],
        check=False,
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (result,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert result["termination"].startswith("TERMINATION_")
    assert len(result["seats"]) == 2
    for seat in result["seats"]:
        assert seat["events"] == result["version"]  # every event, once
        assert seat["accepted"] > 0 and seat["replayed"] == 1
        assert seat["refused"] and all(code != 13 for code in seat["refused"])
    with grpc.insecure_channel(fresh_server.target) as channel:
        game = (
            pb_grpc.GameServiceStub(channel)
            .GetGame(pb.GetGameRequest(game_id=result["game_id"]), timeout=30)
            .game
        )
    assert game.status == "ended" and game.version == result["version"]
