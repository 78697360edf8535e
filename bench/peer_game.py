"""The peer's own game on the ledger: :mod:`bench.games.cards` at the peer's levels.

The same game the boardgame.io peer plays (two seats alternately play a card
1..10, 100 moves), on a ledger server of its own (its own database, the game
registered through ``LEDGER_GAMES``), driven two ways at each level:

- ``submit_only``, like the peer's client: the client knows its legal moves
  and the game's turn order, so a move is one ``SubmitMove`` (card
  ``n % 10 + 1`` at move ``n``) that asks only for the acknowledgement
  (``response_mask``: ``last_version`` and ``receipt``);
- ``list_then_submit``, like scenario 1's client: ``ListLegalMoves``, then
  ``SubmitMove`` of a listed move;

and then ``null_submit_only``: the same ``submit_only`` client against
:mod:`bench.nullserver` answering the ledger's own answers of this run
(captured, median-sized), so the same calls and bytes with no ledger behind
them.  Its rows are the ceiling the gRPC runtime and this client leave for
any server of the card game on this machine: a target above the ceiling's
ratio to the peer cannot be met by cutting the ledger's own work.

Each slot creates a game, plays its 100 moves and starts the next at once (as
the peer's slots do).  moves/s counts ``SubmitMove`` only; server CPU per move
is measured as in scenario 1 (:mod:`bench.throughput_window`).  Each row also
carries its ratio to the peer's row at the same level from this run
(``vs_peer``).  This process never registers the game: the client packs its
messages from the ruleset directly, so no later scenario sees an extra game.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import Any

from bench import canned_baseline, cpu, db, loadgen, peer, procs
from bench.config import Sizes
from bench.cpu import CpuProbe, RetryPolicy
from bench.games.cards import GAME
from bench.games.cards.models import CARDS, MOVES, CardsSetup, PlayCard
from bench.session_player import SessionPlayer
from bench.stats import ratio
from bench.throughput_window import throughput_row, window_side
from ledger.v1 import game_service_pb2 as pb
from services.proto import convert

# convert finds a game's messages through the registry, which this process
# leaves alone: load them here
importlib.import_module(GAME.stubs_module)

GAMES_SETTING = "cards=bench.games.cards"
"""``LEDGER_GAMES`` for the server: the normal way to register an outside game."""

MODES = ("submit_only", "list_then_submit", "session")
"""``session``: the same client as ``list_then_submit``'s, over a seat
session per player (:mod:`bench.session_player`): each move one message and
its answer, the legal moves pushed by the server."""
NULL_MODE = "null_submit_only"
"""The ``submit_only`` client against the null handler: the ceiling."""

ACKNOWLEDGEMENT = ("last_version", "receipt")
"""What a ``submit_only`` client asks of each answer: what was recorded, and the proof."""


def _create_request() -> pb.CreateGameRequest:
    return pb.CreateGameRequest(
        game_type=GAME.name, setup=convert.model_to_any(GAME, CardsSetup())
    )


class CardsPlayer(loadgen.Player):
    """A cards client; with ``submit_only`` it plays without asking what is legal."""

    def __init__(self, target: str, seed: int, rec: loadgen.Recorder, mode: str):
        super().__init__(target, [], seed, rec, requests=[_create_request()])
        self.submit_only = mode == "submit_only"
        if self.submit_only:
            self.response_paths = ACKNOWLEDGEMENT
        self.cards = [
            convert.command_to_any(GAME, PlayCard(card=c)) for c in range(1, CARDS + 1)
        ]

    async def move(self, table: loadgen.Table) -> bool:
        if not self.submit_only:
            return await super().move(table)
        seat = table.to_act[0]
        return await self.submit(table, seat, self.cards[table.moves % CARDS])

    def after_move(
        self, table: loadgen.Table, seat: int, resp: pb.SubmitMoveResponse
    ) -> tuple[list[int], str]:
        if not self.submit_only:
            return super().after_move(table, seat, resp)
        # the client knows the game: the seats alternate, and it ends after MOVES
        return [1 - seat], "ended" if table.moves >= MOVES else "active"


def _player(target: str, seed: int, rec: loadgen.Recorder, mode: str) -> Any:
    if mode == "session":
        return SessionPlayer(target, [], seed, rec, requests=[_create_request()])
    return CardsPlayer(target, seed, rec, mode.removeprefix("null_"))


def canned_cards(captured: dict[str, list[bytes]]) -> dict[str, bytes]:
    """The null handler's answers for the card client: the median-sized
    ``CreateGame`` of a game in play, and the median-sized ``SubmitMove``
    acknowledgement (what ``submit_only`` asked for)."""

    def median(method: str, cls: Any, keep: Any = lambda m: True) -> bytes:
        answer = canned_baseline.median_answer(captured, method, cls, keep)
        return bytes(answer.SerializeToString())

    service = canned_baseline.SERVICE
    return {
        service + "CreateGame": median(
            "CreateGame", pb.CreateGameResponse, lambda m: m.game.status == "active"
        ),
        service + "SubmitMove": median("SubmitMove", pb.SubmitMoveResponse),
    }


def _row(
    n: int, mode: str, rec: loadgen.Recorder, w0: float, w1: float, use: dict[str, Any]
) -> dict[str, Any]:
    row = throughput_row(n, rec, w0, w1, use)
    row.pop("_latencies")
    if mode.endswith("submit_only"):
        row["move_latency_note"] = "SubmitMove only; no ListLegalMoves"
    row["games_finished"] = rec.games_finished
    return row


def vs_peer(row: dict[str, Any], peer_section: Any) -> dict[str, float | None] | None:
    """``row``'s moves/s and server CPU per move over the peer's at the same level."""
    if not isinstance(peer_section, dict) or peer_section.get("status") != "ok":
        return None
    other = next(
        (r for r in peer_section["runs"] if r.get("clients") == row["clients"]), None
    )
    if other is None:
        return None
    return {
        "moves_per_s": ratio(row.get("moves_per_s"), other.get("moves_per_s")),
        "server_cpu_ms_per_move": ratio(
            row.get("server_cpu_ms_per_move"), other.get("server_cpu_ms_per_move")
        ),
    }


def run(
    main_url: str,
    workdir: Path,
    sizes: Sizes,
    peer_section: Any = None,
    policy: RetryPolicy | None = None,
) -> dict[str, Any]:
    """Both modes at each level on a server and database of their own, then
    the null handler's ceiling (:data:`NULL_MODE`)."""
    levels = peer.levels_for(sizes.clients)
    policy = policy or RetryPolicy()
    modes: dict[str, Any] = {}
    captured: dict[str, list[bytes]] = {}

    def levels_of(server: procs.ServerProcess, mode: str) -> list[dict[str, Any]]:
        runs = []
        for n in levels:

            def once(n: int = n) -> tuple[Any, Any]:
                probe = CpuProbe(server.pids())
                rec, w0, w1, (use, _) = asyncio.run(
                    loadgen.run_players(
                        server.target,
                        n,
                        sizes.warmup_s,
                        sizes.window_s,
                        [],
                        on_window=window_side(probe),
                        capture=mode == "submit_only" and not captured,
                        seed=n,
                        player=lambda s, r: _player(server.target, s, r, mode),
                    )
                )
                if rec.capture:
                    captured.update(rec.capture)
                return _row(n, mode, rec, w0, w1, use), use

            row, attempts = policy.quietest(once)
            row["attempts_other_cpu_pct"] = attempts
            row["vs_peer"] = vs_peer(row, peer_section)
            runs.append(row)
        return runs

    with db.bench_database() as url:
        # PostgreSQL CPU: this database's backends, then scenario 1's again
        cpu.watch_database(db.libpq_params(url)["dbname"])
        server = procs.start_ledger_server(
            url,
            workdir,
            snapshot_interval=sizes.snapshot_interval,
            name="peer-game",
            extra_env={"LEDGER_GAMES": GAMES_SETTING},
        )
        try:
            for mode in MODES:
                modes[mode] = {"runs": levels_of(server, mode)}
        finally:
            server.stop()
            cpu.watch_database(db.libpq_params(main_url)["dbname"])
    modes[NULL_MODE] = _null_ceiling(workdir, captured, levels_of)
    return {
        "status": "ok",
        "game": GAME.name,
        "moves_per_game": MOVES,
        "registered_as": f"LEDGER_GAMES={GAMES_SETTING}",
        **modes,
    }


def _null_ceiling(
    workdir: Path, captured: dict[str, list[bytes]], levels_of: Any
) -> dict[str, Any]:
    """``submit_only`` against the null handler answering the ledger's own
    card answers of this run; a section of its own, so a failure here keeps
    the ledger's rows."""
    try:
        canned = canned_cards(captured)
    except RuntimeError as exc:
        return {"status": "not available", "reason": str(exc)}
    path = workdir / "canned-cards.json"
    canned_baseline.write_canned(path, canned)
    try:
        server = procs.start_null_server(workdir, path)
        try:
            runs = levels_of(server, NULL_MODE)
        finally:
            server.stop()
    except Exception as exc:  # noqa: BLE001 - the ledger's rows stand without it
        return {"status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    sizes = {k.rsplit("/", 1)[1]: len(v) for k, v in canned.items()}
    return {"status": "ok", "response_bytes": sizes, "runs": runs}
