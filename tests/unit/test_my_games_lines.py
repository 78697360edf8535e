"""``ledger tournament my-games`` prints whole game ids and seat tokens in an
80-column terminal: a person copies them into ``ledger play``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

GAME_ID = "0b6f1c1e-8d2a-4f4e-9b6e-2f1f3c5a7d90"
TOKEN = "st_" + "Zx9" * 20


def test_my_games_keeps_ids_and_tokens_whole_at_80_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from services.cli import app, locate, replay, root, tournament

    monkeypatch.setattr(root.console, "width", 80)  # a person's terminal

    game = SimpleNamespace(round=2, game_id=GAME_ID, seats=[0], seat_token=TOKEN)
    summary = SimpleNamespace(your_seats=[0], to_act=[1])
    monkeypatch.setattr(locate, "connect", lambda target: None)
    monkeypatch.setattr(
        tournament, "pending_games", lambda conn, tid, token: [(game, summary)]
    )
    monkeypatch.setattr(
        replay, "rules_and_names", lambda s: (None, {0: "ann", 1: "bob"})
    )
    got: Any = CliRunner().invoke(
        app,
        [
            "tournament",
            "my-games",
            "7c0e3c4e-3b0a-4c59-a9f6-5d7c2a2f1b11",
            "--token",
            "t",
        ],
        terminal_width=80,
    )
    assert got.exit_code == 0, got.output
    assert GAME_ID in got.output and TOKEN in got.output, got.output
    assert "…" not in got.output
    assert "seat 1" in got.output and "bob" in got.output
