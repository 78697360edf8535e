"""Read-your-writes across the 3-server tier (``deploy/local/up.sh``), per-call round robin.

Each client plays its own games and sends every call to the next server:
GetGame, then ListLegalMoves, then SubmitMove, each on a different server
than the one before.  A read is *stale* when it answers a version older
than the last one the client's own move returned.  Without ``min_version``
some reads may be stale (the reading server's NOTIFY has not arrived; how
many depends on the load); with it, none are.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import uuid
from collections import Counter
from pathlib import Path

import grpc
import pytest

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from services.api.client import Connection
from services.proto import convert
from tests.deploy.test_local_scale_out import LOCAL, _free_base
from tests.faults.harness import SIZE, Figures
from tests.support.database import scratch_database

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
GAMES = (
    ("terralore", {"players": 2}),
    ("thalara", {"players": 2, "characters": ["myrja", "canto"]}),
)


class RoundRobinClient:
    """One client, its calls spread over every server in turn."""

    def __init__(self, targets: list[str], seed: int, pass_min_version: bool) -> None:
        self.conns = [Connection.open(t) for t in targets]
        self.turn = seed
        self.rnd = random.Random(seed)
        self.pass_min_version = pass_min_version
        self.stale: Counter[str] = Counter()
        self.reads = 0
        self.moves = 0

    def _next(self) -> Connection:
        self.turn += 1
        return self.conns[self.turn % len(self.conns)]

    def play(self, moves: int) -> None:
        while self.moves < moves:
            self._game(moves)
        for conn in self.conns:
            conn.channel.close()

    def _game(self, moves: int) -> None:
        game_type, setup = self.rnd.choice(GAMES)
        ruleset = find_game(game_type)
        created = self._next().call(
            "CreateGame",
            pb.CreateGameRequest(
                game_type=game_type,
                setup=convert.model_to_any(ruleset, ruleset.setup_model(**setup)),
            ),
        )
        game_id = created.game.game_id
        tokens = {seat: t.token for t in created.tokens for seat in t.seats}
        known = created.game.version
        while self.moves < moves:
            floor = known if self.pass_min_version else 0
            game = (
                self._next()
                .call(
                    "GetGame",
                    pb.GetGameRequest(game_id=game_id, min_version=floor),
                    tokens[min(tokens)],
                )
                .game
            )
            self.reads += 1
            if game.version < known:
                self.stale["GetGame"] += 1
                continue  # as a client would: read again
            if game.status == "ended":
                return
            seat = self.rnd.choice(list(game.to_act))
            listed = self._next().call(
                "ListLegalMoves",
                pb.ListLegalMovesRequest(
                    game_id=game_id, seat=seat, page_size=200, min_version=floor
                ),
                tokens[seat],
            )
            self.reads += 1
            if listed.version < known:
                self.stale["ListLegalMoves"] += 1
                continue
            if not listed.moves:
                continue  # the seat no longer acts (a stale GetGame let it through)
            try:
                answer = self._next().call(
                    "SubmitMove",
                    pb.SubmitMoveRequest(
                        game_id=game_id,
                        command_id=str(uuid.uuid4()),
                        move=self.rnd.choice(list(listed.moves)),
                        seat=seat,
                        expected_version=listed.version,
                    ),
                    tokens[seat],
                )
            except grpc.RpcError as exc:
                if exc.code() not in (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    grpc.StatusCode.ABORTED,
                ):
                    raise
                self.stale[f"SubmitMove {exc.code().name}"] += 1
                continue
            known = answer.last_version
            self.moves += 1


def _run(
    targets: list[str], clients: int, moves: int, pass_min_version: bool
) -> list[RoundRobinClient]:
    players = [
        RoundRobinClient(targets, seed=i, pass_min_version=pass_min_version)
        for i in range(clients)
    ]
    errors: list[BaseException] = []

    def play(client: RoundRobinClient) -> None:
        try:
            client.play(moves)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(c,)) for c in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    assert not errors, errors
    return players


def test_round_robin_reads_with_min_version_are_never_stale(server_url, tmp_path):
    figures = Figures("3 servers, per-call round robin", SIZE.clients * 2)
    run = tmp_path / "run"
    per_client = max(SIZE.moves // SIZE.clients, 20)
    with scratch_database(server_url, "ledger_ryw") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_BIN": str(Path(sys.executable).with_name("ledger")),
            "PYTHON": sys.executable,
            "LEDGER_POOL_SIZE": "3",
            "LEDGER_HEALTH_INTERVAL": "0.5",
        }
        base = _free_base(5)
        try:
            up = subprocess.run(
                [str(LOCAL / "up.sh"), str(run), str(base)],
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
                check=False,
            )
            assert up.returncode == 0, up.stdout + up.stderr
            targets = [f"127.0.0.1:{base + i}" for i in range(3)]
            without = _run(
                targets, SIZE.clients * 2, per_client, pass_min_version=False
            )
            with_min = _run(
                targets, SIZE.clients * 2, per_client, pass_min_version=True
            )
        finally:
            subprocess.run([str(LOCAL / "down.sh"), str(run)], timeout=60, check=False)
    stale_without = sum((c.stale for c in without), Counter())
    stale_with = sum((c.stale for c in with_min), Counter())
    figures.moves = sum(c.moves for c in without) + sum(c.moves for c in with_min)
    figures.extra = {
        "without_min_version": {
            "moves": sum(c.moves for c in without),
            "reads": sum(c.reads for c in without),
            "stale": dict(stale_without),
        },
        "with_min_version": {
            "moves": sum(c.moves for c in with_min),
            "reads": sum(c.reads for c in with_min),
            "stale": dict(stale_with),
        },
    }
    figures.publish()
    assert sum(c.moves for c in with_min) >= SIZE.clients * 2 * per_client
    assert stale_with == Counter(), stale_with
