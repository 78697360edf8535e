"""The operator's CLI for the read side: status with lag, rebuild, replay."""

from __future__ import annotations

import random
import uuid

import pytest
from typer.testing import CliRunner

from domain.games import find_game
from projections.runner import LAG

pytestmark = pytest.mark.postgres


@pytest.fixture
def cli_env(isolated_ledger, monkeypatch):
    datastore = isolated_ledger.datastore
    url = f"postgresql://{datastore.pool.kwargs['user']}@{datastore.pool.kwargs['host']}:{datastore.pool.kwargs['port']}/{datastore.pool.kwargs['dbname']}"
    monkeypatch.setenv("LEDGER_DATABASE_URL", url)
    return isolated_ledger


def play(ledger, seed: int) -> uuid.UUID:
    ruleset = find_game("terralore")
    created = ledger.create_game(
        "terralore", {"players": 2}, player_ids=(f"p{seed}a", f"p{seed}b")
    )
    rnd = random.Random(seed)
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
    return created.game_id


def test_status_shows_lag_and_rebuild_catches_every_view_up(cli_env):
    from services.cli import app

    game_id = play(cli_env, 1)
    head = cli_env.read_records(game_id)  # noqa: F841 - the log is not empty
    runner = CliRunner()
    before = runner.invoke(app, ["projections", "status"], terminal_width=200)
    assert before.exit_code == 0, before.output
    lines = {
        line.split("│")[1].strip(): line
        for line in before.output.splitlines()
        if line.count("│") >= 4
    }
    assert {"ratings", "stats", "fairness", "tournament_results"} <= set(lines)
    assert lines["ratings"].split("│")[4].strip() != "0"  # nothing applied yet: lag > 0
    for name in ("ratings", "stats", "fairness", "tournament_results"):
        rebuilt = runner.invoke(
            app, ["projections", "rebuild", name], terminal_width=200
        )
        assert rebuilt.exit_code == 0 and f"rebuilt {name}" in rebuilt.output
        assert LAG.labels(name)._value.get() == 0
    after = runner.invoke(app, ["projections", "status"], terminal_width=200)
    rows = [
        line.split("│") for line in after.output.splitlines() if line.count("│") >= 4
    ]
    assert rows and all(r[4].strip() == "0" for r in rows[1:] if r[1].strip())
    unknown = runner.invoke(app, ["projections", "rebuild", "nope"])
    assert unknown.exit_code != 0
