"""SIGTERM drains a server: one of ``deploy/local/up.sh``'s three, under load.

Clients play round-robin with failover (:mod:`tests.support.failover`); a
spectator streams a game from the drained server and watches its health.
On SIGTERM the server reports NOT_SERVING, refuses and ends calls with
UNAVAILABLE only (retryable: the clients move on), and exits without a
traceback; every acknowledged move is stored once and every game audits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.proto import convert
from tests.deploy.shipped import BIN, DEPLOY, free_ports
from tests.faults.harness import (
    SIZE,
    Figures,
    Load,
    check_ledger,
    views_caught_up,
)
from tests.support.database import scratch_database
from tests.support.server import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
DRAIN_SECONDS = 20
"""The window; the drain must end long before it, when its calls in flight end."""
TWO_PLAYERS: dict[str, object] = {"players": 2}  # setup_model's fields vary by game


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


class Spectator:
    """A live stream of one game and a health watch, both on one server."""

    def __init__(self, target: str) -> None:
        from domain.games import find_game

        self.channel = grpc.insecure_channel(target)
        stub = pb_grpc.GameServiceStub(self.channel)
        ruleset = find_game("terralore")
        created = stub.CreateGame(
            pb.CreateGameRequest(
                game_type="terralore",
                setup=convert.model_to_any(ruleset, ruleset.setup_model(**TWO_PLAYERS)),
            ),
            timeout=15,
        )
        self.game = (created.game.game_id, created.game.version)
        self.events = stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=created.game.game_id, after_version=0)
        )
        self.health = health_pb2_grpc.HealthStub(self.channel).Watch(
            health_pb2.HealthCheckRequest(service="")
        )
        self.stream_end: grpc.StatusCode | None = None
        self.stream_details = ""
        self.seen_health: list[str] = []
        self._threads = [
            threading.Thread(target=self._follow, daemon=True),
            threading.Thread(target=self._watch, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _follow(self) -> None:
        try:
            for _ in self.events:
                pass
        except grpc.RpcError as exc:
            self.stream_end = exc.code()
            self.stream_details = exc.details() or ""

    def _watch(self) -> None:
        try:
            for answer in self.health:
                name = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
                self.seen_health.append(name)
        except grpc.RpcError:
            pass

    def join(self) -> None:
        for thread in self._threads:
            thread.join(60)
        assert not any(t.is_alive() for t in self._threads), "a stream never ended"
        self.channel.close()


class Stubborn:
    """A client that ignores health and refusals: it calls one server every
    20 ms until that server is gone (what a naive balancer does)."""

    def __init__(self, target: str, game_id: str) -> None:
        self.answers: Counter[str] = Counter()
        self._stop = threading.Event()
        self._channel = grpc.insecure_channel(target)
        self._stub = pb_grpc.GameServiceStub(self._channel)
        self._game = game_id
        self._thread = threading.Thread(target=self._call, daemon=True)
        self._thread.start()

    def _call(self) -> None:
        while not self._stop.is_set():
            try:
                self._stub.GetGame(pb.GetGameRequest(game_id=self._game), timeout=5)
                self.answers["OK"] += 1
            except grpc.RpcError as exc:
                self.answers[exc.code().name] += 1
            self._stop.wait(0.02)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        self._channel.close()


def test_sigterm_drains_one_of_three_servers_under_load(server_url, tmp_path):
    # enough clients and moves that calls are in flight and arriving when it
    # drains (the quick size's 3 clients never met the CANCELLED this catches)
    size = replace(SIZE, clients=max(SIZE.clients, 8), moves=max(SIZE.moves, 600))
    figures = Figures(
        "3 servers, SIGTERM drain of one", size.clients, fault_kind="SIGTERM"
    )
    run = tmp_path / "run"
    with scratch_database(server_url, "ledger_drain") as url:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": url,
            "LEDGER_BIN": str(BIN / "ledger"),
            "PYTHON": str(BIN / "python"),
            "LEDGER_POOL_SIZE": "3",
            "LEDGER_HEALTH_INTERVAL": "0.5",
            "LEDGER_DRAIN_SECONDS": str(DRAIN_SECONDS),
        }
        base = free_ports(5)
        try:
            up = subprocess.run(
                [str(DEPLOY / "local" / "up.sh"), str(run), str(base)],
                env=env,
                capture_output=True,
                text=True,
                timeout=240,
                check=False,
            )
            assert up.returncode == 0, up.stdout + up.stderr
            targets = [f"127.0.0.1:{base + i}" for i in range(3)]
            load = Load(",".join(targets), size, seed=11)
            spectator = Spectator(targets[1])
            load.games[spectator.game[0]] = spectator.game[1]  # for check_ledger
            wait_until(lambda: spectator.seen_health == ["SERVING"], "health watch")
            load.start()
            load.wait_for(size.moves // 4)
            victim = int((run / "serve-1.pid").read_text())
            stubborn = Stubborn(targets[1], spectator.game[0])
            os.kill(victim, signal.SIGTERM)
            termed = time.monotonic()
            figures.faults += 1
            wait_until(lambda: not _alive(victim), "the drained server exits", 120)
            drained = time.monotonic() - termed
            stubborn.stop()
            spectator.join()
            load.finish()
            wait_until(lambda: views_caught_up(url), "views did not catch up", 120)
            check_ledger(url, load, figures)
        finally:
            down = [str(DEPLOY / "local" / "down.sh"), str(run)]
            subprocess.run(down, timeout=60, check=False)
    log = Path(run / "serve-1.log").read_text()
    statuses: Counter[str] = Counter(load.answers)
    figures.extra["statuses_seen_by_clients"] = dict(statuses)
    figures.extra["failovers"] = sum(c.failovers for c in load.connections)
    figures.extra["stream_ended_with"] = getattr(spectator.stream_end, "name", None)
    figures.extra["seconds_from_sigterm_to_exit"] = round(drained, 2)
    figures.extra["stubborn_client_answers"] = dict(stubborn.answers)
    figures.extra["drain_window_seconds"] = DRAIN_SECONDS
    figures.publish()
    assert "Traceback" not in log and "error" not in log.lower(), log[-3000:]
    assert spectator.seen_health[-1] == "NOT_SERVING", spectator.seen_health
    assert spectator.stream_end == grpc.StatusCode.UNAVAILABLE
    assert "draining" in spectator.stream_details  # ended by the drain, not at grace
    assert set(statuses) <= {"UNAVAILABLE"}, statuses  # retryable only
    assert figures.extra["failovers"] >= 1
    # a client that ignores health and keeps calling only ever hears UNAVAILABLE
    assert set(stubborn.answers) <= {"OK", "UNAVAILABLE"}, stubborn.answers
    assert stubborn.answers["UNAVAILABLE"] >= 1, stubborn.answers
    # clients kept calling it (and were refused) all along: the drain still
    # ended with its calls in flight, not at the window
    assert drained < DRAIN_SECONDS / 2, drained
    assert figures.moves_lost == 0 and figures.duplicates == 0
    assert figures.games_audited_ok == figures.games > 0
