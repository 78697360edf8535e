"""The boardgame.io peer beside the ledger: scenario 1, the peer, and the peer's game.

Three tables in one section, every figure from the same run: the ledger's
scenario 1 against the peer at the peer's levels; the peer's own rows
(latency, CPU, where in the game the counted moves fell, validation); and the
peer's card game played on the ledger both ways, each over the peer.
"""

from __future__ import annotations

from typing import Any

from bench.report.lookup import ms, not_run, ok, run_at
from bench.stats import fmt, ratio

TITLE = "## Peer: boardgame.io + bgio-postgres, same machine, same run"


def _ratio(value: float | None) -> str:
    return fmt(value, 2, "×")


def _validated(row: dict[str, Any]) -> str:
    check = row.get("validation")
    if not check:
        return "n/a"
    if check.get("ok"):
        return f"ok ({fmt(check.get('stored_moves'))} moves stored)"
    return (
        f"**failed** (missing {check.get('missing')}, behind "
        f"{check.get('stored_behind_acked')}, log mismatch "
        f"{check.get('log_or_stateid_ne_moves')})"
    )


def _side_by_side(s1: Any, runs: list[dict[str, Any]]) -> list[str]:
    out = [
        "| clients | ledger moves/s | peer moves/s | ledger ÷ peer | ledger server CPU ms/move | peer server CPU ms/move | CPU/move ledger ÷ peer |",
        "|---|---|---|---|---|---|---|",
    ]
    for p in runs:
        mine = run_at(s1, "clients", p["clients"]) or {}
        out.append(
            f"| {p['clients']} | {fmt(mine.get('moves_per_s'))} | {fmt(p.get('moves_per_s'))} | "
            f"{_ratio(ratio(mine.get('moves_per_s'), p.get('moves_per_s')))} | "
            f"{fmt(mine.get('server_cpu_ms_per_move'), 2)} | {fmt(p.get('server_cpu_ms_per_move'), 2)} | "
            f"{_ratio(ratio(mine.get('server_cpu_ms_per_move'), p.get('server_cpu_ms_per_move')))} |"
        )
    return [
        *out,
        "",
        (
            "Ledger: scenario 1 (its mixed rulesets; each move is a `ListLegalMoves` then a "
            "`SubmitMove`). Peer: its card game, one socket.io round trip per move."
        ),
        "",
    ]


def _peer_rows(section: dict[str, Any]) -> list[str]:
    out = [
        "| clients | moves/s | p50 / p99 ms | server CPU ms/move | PG backends CPU ms/move | mean move index | machine busy | errors | validation |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in section["runs"]:
        out.append(
            f"| {r['clients']} | {fmt(r.get('moves_per_s'))} | {fmt(r.get('p50_ms'), 1)} / {fmt(r.get('p99_ms'), 1)} | "
            f"{fmt(r.get('server_cpu_ms_per_move'), 2)} | {fmt(r.get('pg_backends_cpu_ms_per_move'), 2)} | "
            f"{fmt(r.get('mean_move_index'))} | {fmt(r.get('host_cpu_busy_pct_of_all_cores'), 0, '%')} | "
            f"{r.get('errors', 'n/a')} | {_validated(r)} |"
        )
    copied = f" {section['copied']}." if section.get("copied") else ""
    return [
        *out,
        "",
        (
            f"{section.get('bench') or 'boardgame.io'}; {section.get('versions') or ''}. "
            f"{section['max_moves_per_game']}-move games, {fmt(section.get('warmup_s'), 1)} s warm-up, "
            f"{fmt(section.get('window_s'), 1)} s window per level; a move counts when the server's "
            "update reaches its sender (broadcast before the write). The mean move index says where "
            f"in the game the counted moves fell; machine busy is the whole machine (100% = all cores).{copied}"
        ),
        "",
    ]


def _game_rows(game: dict[str, Any]) -> list[str]:
    out = [
        "| mode | clients | moves/s | SubmitMove p50 / p99 ms | server CPU ms/move | PostgreSQL CPU ms/move | other processes | moves/s ÷ peer | server CPU/move ÷ peer |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, label in (
        ("submit_only", "SubmitMove only (like the peer's client)"),
        ("list_then_submit", "ListLegalMoves + SubmitMove (like scenario 1)"),
        ("null_submit_only", "null handler, SubmitMove only (the ceiling)"),
    ):
        for r in (game.get(mode) or {}).get("runs", []):
            vs = r.get("vs_peer") or {}
            lat = r.get("submit_latency_ms")
            out.append(
                f"| {label} | {r['clients']} | {fmt(r.get('moves_per_s'))} | "
                f"{ms(lat, 'p50')} / {ms(lat, 'p99')} | {fmt(r.get('server_cpu_ms_per_move'), 2)} | "
                f"{fmt(r.get('postgres_cpu_ms_per_move'), 2)} | "
                f"{fmt((r.get('cpu') or {}).get('other_processes_cpu_pct'), 0, '%')} | "
                f"{_ratio(vs.get('moves_per_s'))} | "
                f"{_ratio(vs.get('server_cpu_ms_per_move'))} |"
            )
    ceiling = game.get("null_submit_only") or {}
    if ceiling and ceiling.get("status") != "ok":
        why = ceiling.get("reason") or ceiling.get("error") or "no reason recorded"
        out += ["", f"The null handler's ceiling was not measured: {why}."]
    return [
        *out,
        "",
        (
            f"The peer's game ({game.get('moves_per_game')} moves, card 1..10) on a ledger server "
            f"and database of its own ({game.get('registered_as')}); each slot starts a new game "
            "when one ends. PostgreSQL CPU counts every backend of that database plus the shared "
            "auxiliary processes; the peer's counts its server's backends only. The null "
            "handler's rows replay the ledger's own answers of this run (median-sized "
            f"{_sizes(game)}) to the same client with no ledger behind them: no server of "
            "this game in this gRPC runtime, driven by this client, goes faster, so a target "
            "above the ceiling's ratio to the peer is out of reach of the ledger's own work."
        ),
        "",
    ]


def _sizes(game: dict[str, Any]) -> str:
    sizes = (game.get("null_submit_only") or {}).get("response_bytes") or {}
    return ", ".join(f"{k} {v} bytes" for k, v in sizes.items()) or "answers"


def peer_section(results: dict[str, Any]) -> list[str]:
    """The peer section of results.md."""
    section = results.get("peer")
    game = results.get("peer_game")
    out = [TITLE, ""]
    if ok(section):
        out += ["### Scenario 1 beside the peer", ""]
        out += _side_by_side(results.get("s1_throughput"), section["runs"])
        out += ["### The peer's own rows", ""]
        out += _peer_rows(section)
    else:
        out += not_run(section)
    out += ["### The peer's game on the ledger", ""]
    out += _game_rows(game) if ok(game) else not_run(game)
    return out
