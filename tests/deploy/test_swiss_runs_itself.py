"""An 8-player Swiss that runs itself, from the organiser's command line.

Two ``ledger serve`` processes share a scratch database.  The organiser
creates the tournament with ``ledger tournament create`` (Fischer clocks, a
no-show window, automatic rounds), registers eight players and starts it;
after ``start`` no organiser command is given: rounds start and the
tournament finishes by themselves.  On the way:

- two registered players never move: the timekeeper forfeits them, and when
  they meet each other it is a double forfeit;
- one of them, past its no-show deadline, tries ``ledger games abort``: it
  is refused and the forfeit is recorded instead;
- two players agree a draw (``offer-draw`` / ``accept-draw``);
- the arbiter pauses a game and resumes it (``ledger arbiter``);
- the arbiter adjudicates a game with tied ranks (``1,1``);
- mid-round, the server holding the timekeeper's and the round scheduler's
  locks is killed with ``kill -9`` and restarted; the other takes over;
- everyone else plays random legal moves over gRPC, with the seat tokens
  their tournament token fetches (``GetMyGames``).

At the end the rounds, what ended each game and the standings are printed
(and written to ``swiss-report.txt`` in the test's directory), and every
game audits OK with ``ledger audit``.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
import threading
import time
import uuid
import zlib
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest

from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.api.client import Connection, Table, legal_moves
from services.ledger.timekeeper import Timekeeper
from services.storage.leader_lock import LOCK_CLASS
from services.tournaments.round_scheduler import RoundScheduler
from tests.deploy.shipped import free_ports
from tests.faults.harness import serve_env
from tests.support.database import scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

GAME = "terralore"
CLOCK = "fischer:20+1"
NO_SHOW = 6
GAP = 3
ROUNDS = 3
PLAYERS = ("ada", "bea", "abe", "zed", "cal", "dot", "eli", "fay")
ABSENT = ("abe", "zed")
"""Seeded third and fourth: round 1 pairs them together (a double forfeit);
later rounds pair each with a player who is there (a forfeit win)."""


def _holder(conn: psycopg.Connection[Any], job: str) -> int | None:
    """The OS pid of the server holding ``job``'s leader lock, if any.

    Advisory locks are per database: servers of other tests, on other scratch
    databases of the same cluster, hold the same key there."""
    key = (zlib.crc32(job.encode()) - 2**31) & 0xFFFFFFFF
    row = conn.execute(
        "SELECT a.application_name FROM pg_locks l"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s"
        " AND l.granted AND l.database ="
        " (SELECT oid FROM pg_database WHERE datname = current_database())",
        (LOCK_CLASS, key),
    ).fetchone()
    return int(row[0].rsplit("-", 1)[1]) if row else None


class Cli:
    """``ledger`` as an organiser, arbiter or player runs it: a process."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = {**os.environ, **env, "COLUMNS": "200", "NO_COLOR": "1"}
        self.target = ""

    def __call__(self, *args: str, code: int = 0, target: bool = True) -> str:
        where = ("--target", self.target) if target else ()
        done = subprocess.run(
            [sys.executable, "-m", "services.cli", *args, *where],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        out = done.stdout + done.stderr
        assert (done.returncode == 0) == (code == 0), (args, done.returncode, out)
        assert "Traceback" not in out, out
        return out


class Desk:
    """The players' side: tournament tokens, seat tokens, random moves."""

    def __init__(self, target: str, tid: str, tokens: dict[str, str]) -> None:
        self.conn = Connection.open(target)
        self.cups = trpc.TournamentServiceStub(self.conn.channel)
        self.tid, self.tokens = tid, tokens

    def seat_token(self, player: str, game_id: str) -> str:
        mine = self.cups.GetMyGames(
            tpb.GetMyGamesRequest(tournament_id=self.tid),
            metadata=(("authorization", f"Bearer {self.tokens[player]}"),),
            timeout=30,
        )
        (game,) = [g for g in mine.games if g.game_id == game_id]
        return game.seat_token

    def game(self, game_id: str) -> gpb.GameSummary:
        return self.conn.call("GetGame", gpb.GetGameRequest(game_id=game_id)).game

    def move(self, table: Table, seat: int, rnd: random.Random) -> None:
        offered = legal_moves(self.conn, table, seat)
        if not offered:  # paused or ended since the read: no seat may move
            return
        self.submit(table, seat, rnd.choice(offered))

    def submit(self, table: Table, seat: int, move: Any) -> None:
        self.conn.call(
            "SubmitMove",
            gpb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id=str(uuid.uuid4()),
                move=move,
                seat=seat,
            ),
            table.tokens[seat],
        )
        table.moves += 1
        table.log.append(f"seat {seat}")

    def warm_up(self, table: Table, rnd: random.Random) -> None:
        """A first move by every seat, and no more: no seat is left to its
        no-show window while the arbiter steps in, and the game still runs.

        Why no more: random Terralore play ends a game within four moves
        about one time in ten (a castle destroyed in the second turn; 289 of
        3,000 seeded random games), and none within two."""
        while len(set(table.log)) < len(table.tokens):
            game = self.game(table.game_id)
            assert game.status != "ended", (table.game_id, table.log, game.outcome)
            mine = [s for s in game.to_act if s in table.tokens]
            first = [s for s in mine if f"seat {s}" not in table.log]
            if first:
                self.move(table, first[0], rnd)
            else:
                time.sleep(0.05)

    def play(
        self,
        table: Table,
        rnd: random.Random,
        stop: threading.Event | None = None,
        moves: int | None = None,
    ) -> None:
        """Random legal moves for the seats in ``table.tokens`` until the game
        ends, ``moves`` were made, or ``stop`` is set."""
        start = table.moves
        while not (stop and stop.is_set()):
            if moves is not None and table.moves - start >= moves:
                return
            game = self.game(table.game_id)
            if game.status == "ended":
                return
            mine = [s for s in game.to_act if s in table.tokens]
            if not mine or game.paused:
                time.sleep(0.1)
                continue
            try:
                self.move(table, rnd.choice(mine), rnd)
            except grpc.RpcError as exc:
                # the game ended or was paused between the read and the move
                if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise


class Round:
    """One round's tables, each played in its own thread (the clocks run)."""

    def __init__(self, desk: Desk, number: int) -> None:
        self.desk, self.number = desk, number
        wait_until(lambda: self._current() == number, f"round {number}", 120)
        pairing = desk.cups.GetPairings(tpb.GetPairingsRequest(tournament_id=desk.tid))
        self.tables = {
            t.game_id: Table(
                t.game_id,
                {
                    seat: desk.seat_token(p, t.game_id)
                    for seat, p in enumerate(t.players)
                },
                None,
            )
            for t in pairing.tables
        }
        self.players = {t.game_id: tuple(t.players) for t in pairing.tables}
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []

    def _current(self) -> int:
        got = self.desk.cups.GetTournament(
            tpb.GetTournamentRequest(tournament_id=self.desk.tid)
        )
        return got.current_round if got.status != "registration" else 0

    def game_of(self, *players: str) -> str:
        (gid,) = [g for g, ps in self.players.items() if set(players) <= set(ps)]
        return gid

    def present(self, game_id: str) -> Table:
        """The table as its present players hold it (absent seats' tokens dropped)."""
        whole = self.tables[game_id]
        seats = {
            s: tok
            for s, tok in whole.tokens.items()
            if self.players[game_id][s] not in ABSENT
        }
        return Table(game_id, seats, None)

    def run(self, game_id: str, script: Any) -> None:
        def guarded() -> None:
            try:
                script()
            except BaseException as exc:  # noqa: BLE001 -- reported by join(), pytest's own failures too
                self.errors.append(exc)

        thread = threading.Thread(target=guarded, daemon=True)
        thread.start()
        self.threads.append(thread)

    def play_out(self, game_id: str, seed: int) -> None:
        table = self.present(game_id)
        self.run(game_id, lambda: self.desk.play(table, random.Random(seed)))

    def join(self, timeout: float = 150) -> None:
        for thread in self.threads:
            thread.join(timeout)
        assert not self.errors, self.errors
        assert not any(t.is_alive() for t in self.threads), "a game never ended"


def _own_turn(desk: Desk, game_id: str) -> int:
    """A seat with a decision to make (a draw is offered on one's own turn)."""
    seats: list[int] = []

    def some() -> bool:
        seats[:] = list(desk.game(game_id).to_act)
        return bool(seats)

    def evidence() -> str:
        game = desk.game(game_id)
        return (
            f"status {game.status}, outcome {game.outcome}, clocks {list(game.clocks)}"
        )

    wait_until(some, "a seat to act", evidence=evidence)
    return seats[0]


class Servers:
    """The two ``ledger serve`` processes, by port: started, killed, restarted."""

    def __init__(self, env: dict[str, str], base: int) -> None:
        self.env, self.base = env, base
        self.up: dict[int, Any] = {}
        self.running: dict[int, Any] = {}

    def start(self, port: int) -> Any:
        self.up[port] = ledger_serve(self.env, port=port)
        self.running[port] = self.up[port].__enter__()
        return self.running[port]

    def kill(self, port: int) -> int:
        served = self.running.pop(port)
        served.proc.kill()
        served.proc.wait()
        self.up[port].__exit__(None, None, None)
        del self.up[port]
        return int(served.proc.pid)

    def port_of(self, pid: int | None) -> int | None:
        return next((p for p, s in self.running.items() if s.proc.pid == pid), None)

    def stop(self) -> None:
        for port in list(self.up):
            self.up.pop(port).__exit__(None, None, None)


def test_an_eight_player_swiss_runs_itself_to_the_end(
    server_url: str, tmp_path: Path
) -> None:
    began = time.monotonic()
    report: list[str] = []
    with scratch_database(server_url, "ledger_swiss_runs_itself") as url:
        env = serve_env(url, tmp_path, LEDGER_TIMEKEEPER_INTERVAL="1")
        servers = Servers(env, free_ports(2))
        try:
            with psycopg.connect(url, autocommit=True) as db:
                _run(Cli(env), servers, db, env, report)
        finally:
            servers.stop()
    report.append(f"wall time: {time.monotonic() - began:.0f} s")
    text = "\n".join(report) + "\n"
    (tmp_path / "swiss-report.txt").write_text(text)
    print("\n" + text)


class LockWatch:
    """Which server held the round scheduler's lock, while waiting for each round.

    The lock is held only while a round waits to start, so it is sampled all
    along on a connection of its own; ``upcoming`` names the round waited for.
    """

    def __init__(self, url: str) -> None:
        self.upcoming = 2
        self.held: dict[int, set[int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, args=(url,), daemon=True)
        self._thread.start()

    def _sample(self, url: str) -> None:
        with (
            contextlib.suppress(psycopg.Error),  # the scratch database is dropped
            psycopg.connect(url, autocommit=True) as conn,
        ):
            while not self._stop.wait(0.05):
                pid = _holder(conn, RoundScheduler.job)
                if pid is not None:
                    self.held.setdefault(self.upcoming, set()).add(pid)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)


def _who(servers: Servers, pids: set[int], ports: dict[int, int]) -> str:
    return ", ".join(f"pid {pid} (port {ports[pid]})" for pid in sorted(pids))


def _run(
    cli: Cli,
    servers: Servers,
    db: psycopg.Connection[Any],
    env: dict[str, str],
    report: list[str],
) -> None:
    a, b = servers.base, servers.base + 1
    first = servers.start(a)
    # ---------------------------------------------------------- organiser
    cli.target = first.target
    admin = ("--token", env["LEDGER_ADMIN_TOKEN"])
    out = cli(
        "tournament", "create", "autumn swiss", "--game", GAME, "--format", "swiss",
        "--rounds", str(ROUNDS), "--clock", CLOCK, "--no-show", str(NO_SHOW),
        "--round-gap", str(GAP), *admin,
    )  # fmt: skip
    tid = re.search(r"created tournament (\S+)", out).group(1)  # type: ignore[union-attr]
    organiser = re.search(r"organiser token \(shown once\): (\S+)", out).group(1)  # type: ignore[union-attr]
    org = ("--token", organiser)
    out = cli("tournament", "register", tid, *PLAYERS, "--plain", *org)
    tokens = dict(line.split() for line in out.splitlines() if line.strip())
    assert set(tokens) == set(PLAYERS)
    report.append("$ ledger tournament create 'autumn swiss' --game " + GAME
                  + f" --format swiss --rounds {ROUNDS} --clock {CLOCK}"
                  f" --no-show {NO_SHOW} --round-gap {GAP}")  # fmt: skip
    report.append(f"$ ledger tournament register TID {' '.join(PLAYERS)}")
    report.append("$ ledger tournament start TID")
    report.append("(no organiser command after this)")
    # the second server comes up while round 1 is played
    second_up = threading.Thread(target=servers.start, args=(b,), daemon=True)
    second_up.start()
    cli("tournament", "start", tid, *org)
    # from here on: no organiser command (the arbiter's and players' only)

    desk = Desk(first.target, tid, tokens)
    watch = LockWatch(db.info.dsn)
    notes: list[str] = []

    # ------------------------------------------------------------ round 1
    r1 = Round(desk, 1)
    double, ada_bea = r1.game_of(*ABSENT), r1.game_of("ada", "bea")
    draw, paused = r1.game_of("cal", "dot"), r1.game_of("eli", "fay")
    r1.play_out(ada_bea, 1)

    def agree_a_draw() -> None:
        table = r1.tables[draw]
        desk.warm_up(table, random.Random(3))
        seat = _own_turn(desk, draw)
        cli("games", "offer-draw", draw, "--token", table.tokens[seat])
        assert desk.game(draw).draw_offered_by == seat
        cli("games", "accept-draw", draw, "--token", table.tokens[1 - seat])

    def pause_and_resume() -> None:
        table = r1.tables[paused]
        desk.warm_up(table, random.Random(4))
        seat = desk.game(paused).to_act[0]
        legal = legal_moves(desk.conn, table, seat)  # a move it had, kept
        cli("arbiter", "pause", paused, *org)
        held = desk.game(paused)
        assert held.paused and held.status != "ended"
        assert legal_moves(desk.conn, table, seat) == []  # none offered while paused
        with pytest.raises(grpc.RpcError) as refused:
            desk.submit(table, seat, legal[0])
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "paused" in (refused.value.details() or ""), refused.value.details()
        time.sleep(2)
        held_for = time.monotonic()
        still = desk.game(paused)
        assert [c.remaining_ms for c in still.clocks] == [
            c.remaining_ms for c in held.clocks
        ], "a clock ran while paused"
        cli("arbiter", "resume", paused, *org)
        held_for = time.monotonic() - held_for + 2
        assert not desk.game(paused).paused
        desk.play(table, random.Random(5))
        notes.append(
            f"round 1, {' v '.join(r1.players[paused])}: paused by the "
            f"arbiter for {held_for:.0f} s (clocks held; a move meanwhile was "
            f"refused: {refused.value.details()}), then resumed and played on"
        )

    r1.run(draw, agree_a_draw)
    r1.run(paused, pause_and_resume)

    # abe, past the no-show deadline, tries to call the game off (over gRPC
    # the moment the deadline passes: before the timekeeper's next sweep)
    abe_seat = r1.players[double].index("abe")
    abe_token = r1.tables[double].tokens[abe_seat]
    ahead = desk.game(double)
    assert ahead.status != "ended" and ahead.HasField("next_deadline")
    deadline = ahead.next_deadline.ToDatetime(tzinfo=UTC).timestamp()
    time.sleep(max(0.0, deadline - time.time() + 0.05))
    with pytest.raises(grpc.RpcError) as abort:
        desk.conn.call(
            "Abort",
            gpb.AbortRequest(game_id=double, reason="wrong table"),
            abe_token,
        )
    assert abort.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    ended = desk.game(double).outcome
    assert ended.termination == "forfeited" and list(ended.absent_seats) == [0, 1]
    notes.append(
        f"round 1, abe v zed: abe aborts {time.time() - deadline:.2f} s after its "
        f"no-show deadline: refused ({abort.value.details()}); the double forfeit "
        f"stands"
    )
    r1.join()
    second_up.join(120)
    assert b in servers.running, "the second server did not start"
    ports = {s.proc.pid: p for p, s in servers.running.items()}

    # ------------------------------------------------------------ round 2
    # the server timing round 2's clocks is killed; the players use the other
    wait_until(lambda: _holder(db, Timekeeper.job) is not None, "a timekeeper", 30)
    victim_pid = _holder(db, Timekeeper.job)
    victim = servers.port_of(victim_pid)
    assert victim is not None, victim_pid
    survivor = servers.running[b if victim == a else a]
    desk = Desk(survivor.target, tid, tokens)
    cli.target = survivor.target
    r2 = Round(desk, 2)
    assert watch.held.get(2), "nobody held the round scheduler before round 2"
    notes.append(
        "round 2 started by itself, by the round scheduler of "
        + _who(servers, watch.held[2], ports)
    )
    forfeits = [g for g, ps in r2.players.items() if set(ps) & set(ABSENT)]
    assert len(forfeits) == 2, r2.players  # each absent player meets one there
    others = [g for g in r2.tables if g not in forfeits]
    adjudicated = others[0]
    r2.run(
        adjudicated,
        lambda: desk.warm_up(r2.tables[adjudicated], random.Random(6)),
    )
    for n, gid in enumerate([*others[1:], *forfeits]):
        r2.play_out(gid, 20 + n)
    time.sleep(1)
    assert all(desk.game(g).status != "ended" for g in forfeits)
    servers.kill(victim)
    watch.upcoming = 3  # no round waits while round 2 is played
    notes.append(
        f"round 2: kill -9 of the server holding the timekeeper, pid "
        f"{victim_pid} (port {victim}), before the round's no-shows were due"
    )
    wait_until(
        lambda: _holder(db, Timekeeper.job) == survivor.proc.pid,
        "the other server takes the timekeeper over",
    )
    notes.append(
        f"round 2: the other server (pid {survivor.proc.pid}) took the "
        f"timekeeper over and recorded the round's no-shows"
    )
    r2.threads[0].join(60)
    cli("tournament", "adjudicate", adjudicated, "--ranks", "1,1",
        "--reason", "arbiter: position agreed level", *org)  # fmt: skip
    # the round's no-shows are recorded while the killed server is down
    wait_until(
        lambda: all(desk.game(g).status == "ended" for g in forfeits),
        "the no-shows of round 2 recorded by the other server",
    )
    again = servers.start(victim)
    ports[again.proc.pid] = victim
    notes.append(
        f"round 2: the killed server restarted on port {victim} (pid "
        f"{again.proc.pid}) while the round went on"
    )
    r2.join()
    # ------------------------------------------------------------ round 3
    r3 = Round(desk, 3)
    watch.upcoming = 4
    assert watch.held.get(3) and victim_pid not in watch.held[3], watch.held
    notes.append(
        "round 3 started by itself, by the round scheduler of "
        + _who(servers, watch.held[3], ports)
    )
    for n, gid in enumerate(r3.tables):
        r3.play_out(gid, 30 + n)
    r3.join()
    wait_until(
        lambda: (
            desk.cups.GetStandings(tpb.GetStandingsRequest(tournament_id=tid)).status
            == "finished"
        ),
        "the tournament finishes by itself",
        60,
    )
    watch.stop()
    _report(cli, desk, tid, report, notes, (adjudicated, draw, double, *forfeits))


def _report(
    cli: Cli,
    desk: Desk,
    tid: str,
    report: list[str],
    notes: list[str],
    special: tuple[str, ...],
) -> None:
    adjudicated, draw, double, *forfeits = special
    rounds = desk.cups.ListRounds(tpb.ListRoundsRequest(tournament_id=tid)).rounds
    assert [r.round for r in rounds] == list(range(1, ROUNDS + 1))
    report.append(f"{len(PLAYERS)}-player Swiss, {GAME}, clock {CLOCK}, "
                  f"no-show {NO_SHOW} s, automatic rounds {GAP} s apart")  # fmt: skip
    report.append(f"absent (never move): {', '.join(ABSENT)}")
    games = [t.game_id for r in rounds for t in r.tables]
    with ThreadPoolExecutor(4) as pool:  # a CLI process each: start them together
        replays = dict(
            zip(
                games,
                pool.map(lambda g: cli("replay", g, "--token", "faults-admin"), games),
                strict=True,
            )
        )
        audits = dict(
            zip(
                games,
                pool.map(lambda g: cli("audit", g, target=False), games),
                strict=True,
            )
        )
    seen: dict[str, str] = {}
    for r in rounds:
        report.append(
            f"\nround {r.round}" + (f" (byes: {', '.join(r.byes)})" if r.byes else "")
        )
        for t in r.tables:
            game = desk.conn.call("GetGame", gpb.GetGameRequest(game_id=t.game_id)).game
            assert game.status == "ended" and t.finished, (t, game)
            out = game.outcome
            replay = replays[t.game_id]
            ending = [
                line.split(" ", 3)[-1].strip()
                for line in replay.splitlines()
                if re.search(
                    r"records it|records the result|accepts the draw|pauses|resumes"
                    r"|offers a draw|The game is over",
                    line,
                )
            ]
            absent = [t.players[s] for s in out.absent_seats]
            winners = [t.players[s] for s in out.winners]
            seen[t.game_id] = out.termination
            report.append(
                f"  {t.players[0]} v {t.players[1]}  game {t.game_id}"
                f"  ranks {list(out.ranks)}  {out.termination}"
                + (f"  winner {', '.join(winners)}" if winners else "  no winner")
                + (f"  absent {', '.join(absent)}" if absent else "")
                + f"  ({game.version} events)"
            )
            for line in ending:
                report.append(f"      {line}")
            for player, rank in zip(t.players, t.ranks, strict=True):
                if player in ABSENT:
                    assert player not in winners
            if set(t.players) <= set(ABSENT):
                assert out.termination == "forfeited" and not out.winners
                assert sorted(out.absent_seats) == [0, 1]
            elif set(t.players) & set(ABSENT):
                assert out.termination == "forfeited", out
    assert seen[adjudicated] == "adjudicated"
    assert seen[draw] == "agreed"
    assert seen[double] == "forfeited"
    assert all(seen[g] == "forfeited" for g in forfeits)
    report.append("")
    report.extend(notes)

    standings = desk.cups.GetStandings(tpb.GetStandingsRequest(tournament_id=tid))
    assert standings.status == "finished" and standings.round == ROUNDS
    for row in standings.rows:
        if row.player_id in ABSENT:
            assert row.points == 0 and row.wins == 0, row
    show = cli("tournament", "show", tid)
    table = cli("tournament", "standings", tid)
    report.append("\n$ ledger tournament show")
    report.extend(line.rstrip() for line in show.splitlines())
    report.append("\n$ ledger tournament standings")
    report.extend(line.rstrip() for line in table.splitlines())

    report.append("\n$ ledger audit GAME (each game)")
    for gid in games:
        last = [line for line in audits[gid].splitlines() if line.strip()][-1]
        assert last.strip().startswith("OK:"), audits[gid]
        report.append(f"  {gid}: {last.strip()}")
