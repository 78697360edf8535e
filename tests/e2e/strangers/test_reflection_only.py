"""Item: reflection serves every game from the start, over v1 and v1alpha."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

CLIENT = Path(__file__).with_name("reflection_only_client.py")


def test_a_fresh_server_describes_every_game_message_to_a_reflection_only_client(
    fresh_server,
):
    # -I: no cwd, no PYTHONPATH; the client imports no ledger module itself
    out = subprocess.run(
        [sys.executable, "-I", str(CLIENT), fresh_server.target],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["imported_ledger"] == []
    games = ("thalara", "terralore", "thorgal", "vaalbara")
    for game in games:
        assert f"ledger.v1.{game}.Move" in report["messages"]
        assert f"ledger.v1.{game}.Event" in report["messages"]
    setups = [n for n in report["messages"] if n.endswith("Setup")]
    assert len(setups) == len(games)
    assert all("players" in report["messages"][n] for n in setups)
    assert len(report["messages"]) == 4 * len(games)
    assert "ledger.v1.GameService" in report["v1_services"]
    assert "grpc.reflection.v1.ServerReflection" in report["v1_services"]
    assert "grpc.reflection.v1alpha.ServerReflection" in report["v1_services"]
    assert report["v1_files"] >= 1
