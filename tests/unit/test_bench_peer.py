"""The peer inside ``ledger bench``: reading ``run.sh``'s output and the report section."""

from __future__ import annotations

import json
from typing import Any

from bench import peer, peer_game
from bench.report.peer import TITLE, peer_section


def _level(c: int, moves_per_s: float, cpu_ms: float) -> str:
    return json.dumps(
        {
            "bench": "boardgame.io 0.50.2 + bgio-postgres 1.0.16",
            "c": c,
            "window_s": 20.0,
            "moves": int(moves_per_s * 20),
            "moves_per_s": moves_per_s,
            "p50_ms": 3.28,
            "p99_ms": 9.22,
            "mean_move_index": 51,
            "errors": 0,
            "server_cpu_ms_per_move": cpu_ms,
            "pg_backends_cpu_ms_per_move": 1.19,
            "sql_statements_per_move": {"total": 7.0},
        }
    )


def _validation(c: int, ok: bool = True) -> str:
    return json.dumps(
        {
            "validate": c,
            "matches": 12,
            "missing": 0,
            "stored_behind_acked": 0 if ok else 2,
            "log_or_stateid_ne_moves": 0,
            "stored_moves": 1200,
            "sample_log_entry": {"action": {"type": "MAKE_MOVE"}},
            "ok": ok,
        }
    )


STDOUT = "\n".join([_level(1, 265.0, 2.92), _level(32, 439.1, 2.26), ""])
STDERR = "\n".join(
    [
        "versions: node v20.20.2, boardgame.io 0.50.2, cores 2",
        "server pid 123 on 127.0.0.1:8123; MAX_MOVES=100",
        "C=1 ...",
        _validation(1),
        "C=32 ...",
        "run.sh: validation FAILED for C=32",
        _validation(32, ok=False),
        "{not json",
        "server log and match files: /tmp/x",
    ]
)


def test_each_stdout_line_becomes_a_row_with_its_levels_validation() -> None:
    parsed = peer.parse_output(STDOUT, STDERR)
    assert [r["clients"] for r in parsed["runs"]] == [1, 32]
    one, many = parsed["runs"]
    assert one["moves_per_s"] == 265.0 and one["server_cpu_ms_per_move"] == 2.92
    assert one["p50_ms"] == 3.28 and one["p99_ms"] == 9.22
    assert one["pg_backends_cpu_ms_per_move"] == 1.19
    assert one["mean_move_index"] == 51
    assert one["validation"]["ok"] is True
    assert many["validation"]["ok"] is False
    assert many["validation"]["stored_behind_acked"] == 2
    assert "sample_log_entry" not in many["validation"]
    assert parsed["versions"] == "node v20.20.2, boardgame.io 0.50.2, cores 2"
    assert parsed["bench"].startswith("boardgame.io 0.50.2")


def test_a_level_without_its_validation_line_says_so_and_noise_is_skipped() -> None:
    parsed = peer.parse_output("progress\n" + _level(8, 446.6, 2.21) + "\n[1, 2]\n", "")
    assert [r["clients"] for r in parsed["runs"]] == [8]
    assert parsed["runs"][0]["validation"] is None
    assert parsed["versions"] is None


def test_the_peer_runs_at_the_levels_scenario_1_also_runs() -> None:
    assert peer.levels_for((1, 8, 32, 64)) == (1, 8, 32)
    assert peer.levels_for((1, 32)) == (1, 32)


def test_without_node_the_section_says_why(monkeypatch: Any, tmp_path: Any) -> None:
    monkeypatch.setattr(peer.shutil, "which", lambda name: None)
    got = peer.run(tmp_path, (1, 32), 0.5, 2.5)
    assert got == {"status": "not run", "reason": "no node on PATH"}
    lines = peer_section({"peer": got, "peer_game": None})
    assert "not run: no node on PATH" in lines


def test_without_the_harness_the_section_says_where_it_looked(
    monkeypatch: Any, tmp_path: Any
) -> None:
    monkeypatch.setattr(peer.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setenv("BENCH_PEER_DIR", str(tmp_path / "absent"))
    got = peer.run(tmp_path, (1, 32), 0.5, 2.5)
    assert got["status"] == "not run"
    assert str(tmp_path / "absent") in got["reason"]


def _results() -> dict[str, Any]:
    parsed = peer.parse_output(STDOUT, STDERR)
    peer_part = {
        "status": "ok",
        "max_moves_per_game": 100,
        "warmup_s": 1.0,
        "window_s": 2.5,
        **parsed,
    }
    s1 = {
        "status": "ok",
        "runs": [
            {"clients": 1, "moves_per_s": 530.0, "server_cpu_ms_per_move": 1.46},
            {"clients": 32, "moves_per_s": 878.2, "server_cpu_ms_per_move": 1.13},
        ],
    }
    game_row = {
        "clients": 32,
        "moves_per_s": 1317.3,
        "submit_latency_ms": {"p50": 20.0, "p99": 40.0},
        "server_cpu_ms_per_move": 1.13,
        "postgres_cpu_ms_per_move": 0.5,
    }
    game_row["vs_peer"] = peer_game.vs_peer(game_row, peer_part)
    game = {
        "status": "ok",
        "moves_per_game": 100,
        "registered_as": "LEDGER_GAMES=cards=bench.games.cards",
        "submit_only": {"runs": [game_row]},
        "list_then_submit": {"runs": []},
    }
    return {"peer": peer_part, "s1_throughput": s1, "peer_game": game}


def _row(lines: list[str], start: str) -> list[str]:
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, (start, found)
    return [cell.strip() for cell in found[0].strip("|").split("|")]


def test_the_section_puts_the_peer_beside_scenario_1_with_ratios() -> None:
    lines = peer_section(_results())
    assert lines[0] == TITLE
    # clients, ledger moves/s, peer moves/s, ratio, ledger CPU, peer CPU, CPU ratio
    assert _row(lines, "| 1 | 530 |") == [
        "1", "530", "265", "2.00×", "1.46", "2.92", "0.50×",
    ]  # fmt: skip
    assert _row(lines, "| 32 | 878 |")[1:4] == ["878", "439", "2.00×"]


def test_the_section_lists_the_peers_rows_and_flags_a_failed_validation() -> None:
    lines = peer_section(_results())
    one = _row(lines, "| 1 | 265 |")
    assert one[2] == "3.3 / 9.2" and one[5] == "51"
    assert one[-1].startswith("ok (1,200 moves stored)")
    assert _row(lines, "| 32 | 439 |")[-1].startswith("**failed**")


def test_the_peers_game_on_the_ledger_is_divided_by_the_peer_at_its_level() -> None:
    lines = peer_section(_results())
    row = _row(lines, "| SubmitMove only")
    assert row[1:3] == ["32", "1,317"]
    assert row[-2:] == ["3.00×", "0.50×"]


def test_a_failed_peer_game_does_not_hide_the_peer() -> None:
    results = _results()
    results["peer_game"] = {"status": "failed", "error": "RuntimeError: boom"}
    lines = peer_section(results)
    assert any(line.startswith("| 1 | 530 |") for line in lines)
    assert "failed: RuntimeError: boom" in lines


def test_the_null_ceiling_is_divided_by_the_peer_beside_the_ledgers_rows() -> None:
    results = _results()
    ceiling = {
        "clients": 32,
        "moves_per_s": 2195.5,
        "submit_latency_ms": {"p50": 10.0, "p99": 20.0},
        "server_cpu_ms_per_move": 0.3,
    }
    ceiling["vs_peer"] = peer_game.vs_peer(ceiling, results["peer"])
    results["peer_game"]["null_submit_only"] = {
        "status": "ok",
        "response_bytes": {"CreateGame": 512, "SubmitMove": 140},
        "runs": [ceiling],
    }
    lines = peer_section(results)
    row = _row(lines, "| null handler, SubmitMove only")
    assert row[1:3] == ["32", "2,196"]
    assert row[-2] == "5.00×"
    assert any("CreateGame 512 bytes, SubmitMove 140 bytes" in line for line in lines)


def _captured(*statuses: str) -> dict[str, list[bytes]]:
    pb = peer_game.pb
    created = [
        pb.CreateGameResponse(game=pb.GameSummary(game_id="g" * (i + 1), status=s))
        for i, s in enumerate(statuses)
    ]
    answers = [pb.SubmitMoveResponse(last_version=v) for v in (2, 300, 40_000)]
    return {
        "CreateGame": [m.SerializeToString() for m in created],
        "SubmitMove": [m.SerializeToString() for m in answers],
    }


def test_the_null_ceiling_answers_a_median_game_in_play_and_acknowledgement() -> None:
    canned = peer_game.canned_cards(_captured("ended", "active", "active", "active"))
    service = "/ledger.v1.GameService/"
    assert set(canned) == {service + "CreateGame", service + "SubmitMove"}
    game = peer_game.pb.CreateGameResponse.FromString(canned[service + "CreateGame"])
    assert game.game.status == "active" and game.game.game_id == "ggg"
    ack = peer_game.pb.SubmitMoveResponse.FromString(canned[service + "SubmitMove"])
    assert ack.last_version == 300


def test_no_card_game_in_play_captured_leaves_the_ceiling_unmeasured() -> None:
    import pytest

    with pytest.raises(RuntimeError, match="CreateGame"):
        peer_game.canned_cards(_captured("ended"))


def test_an_unmeasured_ceiling_says_why_and_keeps_the_ledgers_rows() -> None:
    results = _results()
    results["peer_game"]["null_submit_only"] = {
        "status": "failed",
        "error": "RuntimeError: server exited with 1",
    }
    lines = peer_section(results)
    assert _row(lines, "| SubmitMove only")[1:3] == ["32", "1,317"]
    assert (
        "The null handler's ceiling was not measured: RuntimeError: server exited with 1."
        in lines
    )
