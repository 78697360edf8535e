"""Load, fault bookkeeping and the end-of-run checks shared by the fault tests.

Clients are threads playing random legal games through the rule-blind
protocol (GetGame, ListLegalMoves, SubmitMove).  A move's command id is
chosen once; while the answer is UNAVAILABLE or DEADLINE_EXCEEDED (server
dead, database down) the client resends the *same* request, as a real
client must.  Any other failure is recorded and fails the test.

At the end, the database is compared with what the clients were told:

- acknowledged moves == stored moves: every acknowledged command id is in
  ``ledger_commands`` with the versions the client was given (else *lost*);
  no stored command was never acknowledged, and no game holds an event that
  neither its creation nor an acknowledged move accounts for (else
  *duplicate*);
- every game audits OK (``domain.audit.game_audit``, as ``ledger audit`` runs it);
- every view equals a rebuild from the log.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import grpc
import psycopg

from domain.audit.game_audit import audit_records
from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from projections import registry
from services.api.client import Connection
from services.proto import convert
from tests.support.failover import connect
from tests.support.views import dump

FULL = os.environ.get("LEDGER_FAULTS_FULL", "") not in ("", "0")
REPORT = os.environ.get("LEDGER_FAULTS_REPORT")
"""A JSON-lines file each test appends its figures to (``tests.faults.full_run``)."""
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
GAMES = (
    ("terralore", {"players": 2}),
    ("thalara", {"players": 2, "characters": ["myrja", "canto"]}),
    ("vaalbara", {"players": 3}),
    ("thorgal", {"players": 2}),
)


@dataclass(frozen=True)
class Size:
    clients: int
    moves: int
    """Acknowledged moves the run aims for, in total."""
    faults: int
    outage: float = 2.0
    """Seconds PostgreSQL stays down (the stop fault)."""


QUICK = Size(clients=3, moves=45, faults=1, outage=2.0)
FULL_SIZE = Size(clients=8, moves=600, faults=3, outage=5.0)
SIZE = FULL_SIZE if FULL else QUICK


@dataclass
class Figures:
    """What a run did and found; the table in docs/reliability.md is made of these."""

    test: str
    clients: int
    moves: int = 0
    faults: int = 0
    fault_kind: str = ""
    retried_answers: dict[str, int] = field(default_factory=dict)
    moves_lost: int = 0
    duplicates: int = 0
    games: int = 0
    games_audited_ok: int = 0
    views_equal_rebuild: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def publish(self) -> None:
        print(json.dumps(asdict(self)))
        if REPORT:
            with open(REPORT, "a") as out:
                out.write(json.dumps(asdict(self)) + "\n")


class Load:
    """``clients`` threads playing random games against ``target`` until
    ``moves`` acknowledged moves (or :meth:`stop`).  ``target`` may list
    several servers, comma-separated (:mod:`tests.support.failover`)."""

    def __init__(self, target: str, size: Size, seed: int = 0) -> None:
        self.target, self.size, self.seed = target, size, seed
        self.acks: dict[tuple[str, str], tuple[int, int]] = {}
        self.games: dict[str, int] = {}
        """Acknowledged games -> the version CreateGame returned."""
        self.answers: Counter[str] = Counter()
        self.tokens: dict[str, dict[int, str]] = {}
        """Each game's seat tokens, to play it on after the load."""
        self.receipts: list[Any] = []
        """The receipts (``pb.Receipt``) of acknowledged moves, as a player keeps them."""
        self.errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.connections: list[Any] = []

    @property
    def moves(self) -> int:
        return len(self.acks)

    def start(self) -> None:
        self._threads = [
            threading.Thread(target=self._client, args=(i,), daemon=True)
            for i in range(self.size.clients)
        ]
        for thread in self._threads:
            thread.start()

    def wait_for(self, moves: int, timeout: float = 300.0) -> None:
        deadline = time.monotonic() + timeout
        while self.moves < moves and not self.errors:
            assert time.monotonic() < deadline, f"only {self.moves}/{moves} moves"
            time.sleep(0.1)
        assert not self.errors, self.errors

    def finish(self, timeout: float = 600.0) -> None:
        """Wait for the target, stop the clients, and re-raise what any of them hit."""
        self.wait_for(self.size.moves, timeout)
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(120)
        assert not any(t.is_alive() for t in self._threads), "a client hangs"
        assert not self.errors, self.errors

    # ---------------------------------------------------------- one client

    def _client(self, index: int) -> None:
        rnd = random.Random(self.seed * 1000 + index)
        conn = connect(self.target, index)  # "a,b,c": round-robin start, failover
        self.connections.append(conn)
        try:
            while not self._stop.is_set() and self.moves < self.size.moves:
                self._play_game(conn, rnd)
        except BaseException as exc:  # noqa: BLE001 - reported by stop()/wait_for()
            self.errors.append(exc)
        finally:
            conn.channel.close()

    def _call(
        self, conn: Connection, method: str, request: Any, token: str = ""
    ) -> Any:
        """The same request until it is answered (bounded: a dead server fails the test)."""
        deadline = time.monotonic() + 180
        while True:
            try:
                return conn.call(method, request, token or None, timeout=15)
            except grpc.RpcError as exc:
                with self._lock:
                    self.answers[exc.code().name] += 1
                if exc.code() not in RETRYABLE or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _play_game(self, conn: Connection, rnd: random.Random) -> None:
        game_type, setup = rnd.choice(GAMES)
        ruleset = find_game(game_type)
        created = self._call(
            conn,
            "CreateGame",
            pb.CreateGameRequest(
                game_type=game_type,
                setup=convert.model_to_any(ruleset, ruleset.setup_model(**setup)),
            ),
        )
        game_id = created.game.game_id
        tokens = {seat: t.token for t in created.tokens for seat in t.seats}
        with self._lock:
            self.games[game_id] = created.game.version
            self.tokens[game_id] = tokens
        known = created.game.version  # min_version: read-your-writes on any server
        while not self._stop.is_set() and self.moves < self.size.moves:
            game = self._call(
                conn, "GetGame", pb.GetGameRequest(game_id=game_id, min_version=known)
            ).game
            if game.status == "ended":
                return
            seat = rnd.choice(list(game.to_act))
            listed = self._call(
                conn,
                "ListLegalMoves",
                pb.ListLegalMovesRequest(
                    game_id=game_id, seat=seat, page_size=200, min_version=known
                ),
                tokens[seat],
            )
            request = pb.SubmitMoveRequest(
                game_id=game_id,
                command_id=str(uuid.uuid4()),
                move=rnd.choice(list(listed.moves)),
                seat=seat,
            )
            answer = self._call(conn, "SubmitMove", request, tokens[seat])
            with self._lock:
                self.acks[(game_id, request.command_id)] = (
                    answer.first_version,
                    answer.last_version,
                )
                self.receipts.append(answer.receipt)
            known = answer.last_version


def check_ledger(url: str, load: Load, figures: Figures) -> None:
    """Acknowledged == stored, and every game (acknowledged or not) audits OK."""
    from services.runtime.bootstrap import build_ledger
    from services.runtime.settings import Settings

    with psycopg.connect(url) as db:
        commands = {
            (str(g), c): (f, last)
            for g, c, f, last in db.execute(
                "SELECT game_id, command_id, first_version, last_version FROM ledger_commands"
            )
        }
        versions: dict[str, list[int]] = {}
        for g, v in db.execute(
            "SELECT originator_id, originator_version FROM ledger_events"
            " ORDER BY originator_id, originator_version"
        ):
            versions.setdefault(str(g), []).append(v)
    lost = [k for k, span in load.acks.items() if commands.get(k) != span]
    unacknowledged = [k for k in commands if k not in load.acks]
    extra_events = 0
    for game_id, stored in versions.items():
        # a game whose creation was stored but never acknowledged (the server
        # died before answering): no client had its tokens, so every event it
        # holds is its creation's (a command row for it would fail the
        # unacknowledged check below)
        created = load.games.get(game_id, stored[-1])
        expected = set(range(1, created + 1))
        for (g, _), (first, last) in load.acks.items():
            if g == game_id:
                expected |= set(range(first, last + 1))
        extra_events += len(stored) - len(set(stored) & expected)
        assert len(stored) == len(set(stored))  # the primary key, but say so
    figures.moves = load.moves
    figures.moves_lost = len(lost)
    figures.duplicates = len(unacknowledged) + extra_events
    figures.retried_answers = dict(load.answers)
    figures.extra["games_created_unacknowledged"] = len(set(versions) - set(load.games))
    ledger = build_ledger(Settings(database_url=url, pool_size=2), url)
    try:
        failures = []
        for game_id in versions:
            rows = ledger.read_records(uuid.UUID(game_id))
            seed = None
            if rows[-1][1] != "ledger.GameConcluded":
                seed = ledger.seed_of(uuid.UUID(game_id))
            report = audit_records(game_id, rows, server_seed=seed)
            if report.ok:
                figures.games_audited_ok += 1
            else:
                failures.append(report)
        figures.games = len(versions)
    finally:
        ledger.close()
    assert load.moves >= load.size.moves
    assert lost == [], f"acknowledged but not stored as acknowledged: {lost[:5]}"
    assert unacknowledged == [], f"stored, never acknowledged: {unacknowledged[:5]}"
    assert extra_events == 0, "events no acknowledged move accounts for"
    assert failures == [], [str(f) for f in failures[:3]]


def views_caught_up(url: str) -> bool:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT coalesce(max(notification_id), 0) FROM ledger_events"
        ).fetchone()
        assert row is not None  # an aggregate always returns one row
        (head,) = row
        try:
            rows = db.execute("SELECT position FROM projection_tracking").fetchall()
        except psycopg.errors.UndefinedTable:
            return False  # the projector has not started yet
    return len(rows) == len(registry.VIEWS) and all(p >= head for (p,) in rows)


def views_behind(url: str, served: Any) -> str:
    """Why views have not caught up: each view's position (and stall, if any)
    against the log's head, and the end of the server's log (its views child
    shares it)."""
    with psycopg.connect(url) as db:
        head = db.execute("SELECT max(notification_id) FROM ledger_events").fetchone()
        try:
            rows = db.execute(
                "SELECT view, position, stalled_at, stalled_reason FROM projection_tracking"
            ).fetchall()
        except psycopg.errors.UndefinedTable:
            rows = []
    log = "".join(served.lines[-40:])
    return f"log head {head}, views {rows}\nserver log, last lines:\n{log}"


def check_views(url: str, figures: Figures) -> None:
    """With no projector running: each view's rows equal a rebuild from the log."""
    from services.runtime.bootstrap import build_ledger
    from services.runtime.settings import Settings

    ledger = build_ledger(Settings(database_url=url, pool_size=2), url)
    try:
        for runner in registry.runners(ledger.datastore):
            tables = runner.view.tables
            if not tables:
                continue  # tournament_results writes the tournaments' log, no table
            projected = dump(ledger, tables)
            runner.reset()
            runner.catch_up()
            assert dump(ledger, tables) == projected, f"view {runner.view.name}"
            figures.views_equal_rebuild += 1
    finally:
        ledger.close()
    assert figures.views_equal_rebuild == len(
        [n for n in registry.VIEWS if registry.view(n).tables]
    )


def serve_env(url: str, data_dir: Any, **extra: str) -> dict[str, str]:
    """``ledger serve``'s environment for a fault run on ``url``."""
    return {
        "LEDGER_DATABASE_URL": url,
        "LEDGER_ADMIN_TOKEN": "faults-admin",
        "LEDGER_DATA_DIR": str(data_dir),
        "LEDGER_POOL_SIZE": "4",
        "LEDGER_HEALTH_INTERVAL": "0.5",
        "XDG_RUNTIME_DIR": str(data_dir),
        **extra,
    }
