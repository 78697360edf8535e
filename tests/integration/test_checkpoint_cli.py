"""``ledger checkpoint`` and ``ledger audit --against``: as an operator runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.integration.test_tamper import as_superuser, play, rewrite, rows
from tests.support.database import scratch_database

pytestmark = pytest.mark.postgres


@pytest.fixture
def operator(
    server_url: str, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Any, Any]]:
    """A ledger on a database and data dir of its own, and a DBA on that database."""
    import psycopg

    from services.runtime.bootstrap import build_ledger

    with scratch_database(server_url, "ledger_cp") as url:
        own = settings.model_copy(update={"database_url": url, "data_dir": tmp_path})
        monkeypatch.setenv("LEDGER_DATABASE_URL", url)
        monkeypatch.setenv("LEDGER_DATA_DIR", str(tmp_path))
        ledger = build_ledger(own)
        try:
            with psycopg.connect(url, autocommit=True) as dba:
                yield ledger, dba
        finally:
            ledger.close()


def run(*args: str) -> Any:
    from services.cli import app

    return CliRunner().invoke(app, list(args))


def test_a_kept_checkpoint_audits_ok_until_a_game_is_rewritten(operator, tmp_path):
    ledger, dba = operator
    game_id, _ = play(ledger)  # its end signs a checkpoint
    other, _ = play(ledger, seed=8)
    ledger.head_signer.close()
    kept = tmp_path / "kept.json"
    made = run("checkpoint", "-o", str(kept))
    assert made.exit_code == 0, made.output
    assert json.loads(kept.read_text())["tree_size"] == 2
    ok = run("audit", "--against", str(kept))
    assert ok.exit_code == 0, ok.output
    assert "2 games checked" in ok.output and "OK" in ok.output

    records = rows(dba, game_id)
    records[3][2]["timestamp"] = records[2][2]["timestamp"]  # back-dated, in order
    rewrite(dba, game_id, records)
    bad = run("audit", "--against", str(kept))
    assert bad.exit_code == 1, bad.output
    head = records[-1][0]
    assert f"game {game_id} version {head}" in bad.output
    assert "rewritten" in bad.output and str(other) not in bad.output
    one = run("audit", str(other), "--against", str(kept))
    assert one.exit_code == 0, one.output  # the other game, alone, is fine

    as_superuser(
        dba,
        (
            "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version > %s",
            (other, 4),
        ),
    )
    both = run("audit", "--against", str(kept))
    assert f"game {other} version" in both.output and "ends at 4" in both.output


def test_a_forged_or_foreign_checkpoint_is_refused_in_one_line(operator, tmp_path):
    ledger, _dba = operator
    play(ledger)
    ledger.head_signer.close()
    kept = tmp_path / "kept.json"
    assert run("checkpoint", "-o", str(kept)).exit_code == 0
    forged = json.loads(kept.read_text())
    forged["tree_size"] += 1
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    refused = run("audit", "--against", str(tmp_path / "forged.json"))
    assert refused.exit_code == 1
    assert (
        "FAIL checkpoint: the checkpoint's signature does not verify" in refused.output
    )

    for args, says in [
        (["audit", "--against", str(tmp_path / "none.json")], "cannot read"),
        (["audit", "--against", str(tmp_path / "kept.json.x")], "cannot read"),
        (["audit"], "needs a GAME_ID"),
    ]:
        answer = run(*args)
        assert answer.exit_code == 2, answer.output
        assert says in answer.output and "Traceback" not in answer.output
    (tmp_path / "junk.json").write_text('{"tree_size": "x"}')
    junk = run("audit", "--against", str(tmp_path / "junk.json"))
    assert junk.exit_code == 2 and "is not a checkpoint" in junk.output


def test_each_servers_checkpoint_is_audited_and_any_one_fails_the_audit(
    operator, tmp_path
):
    """Servers on separate hosts each sign a checkpoint over what they wrote:
    the audit takes every server's, and a game rolled back is caught by the
    one that pinned it, whichever comes first."""
    ledger, dba = operator
    first, _ = play(ledger)
    ledger.head_signer.close()
    early = tmp_path / "server-a.json"  # pins the first game only
    assert run("checkpoint", "-o", str(early)).exit_code == 0
    later, _ = play(ledger, seed=8)
    ledger.head_signer.close()
    both = tmp_path / "server-b.json"
    assert run("checkpoint", "-o", str(both)).exit_code == 0

    as_superuser(
        dba,
        (
            "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version > %s",
            (later, 4),
        ),
    )
    alone = run("audit", "--against", str(early))
    assert alone.exit_code == 0, alone.output  # it never pinned that game
    for order in ((early, both), (both, early)):
        found = run("audit", "--against", str(order[0]), "--against", str(order[1]))
        assert found.exit_code == 1, found.output
        assert f"game {later} version" in found.output
        assert found.output.count("games checked") == 2  # both were read
    assert str(first) not in run("audit", "--against", str(both)).output
