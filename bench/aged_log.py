"""A ledger database that has aged: a year of play, built once and reused.

Why every event is real: each game is created through
``GameLedger.create_game`` (its seed, its commitment, its receipt, its seat
tokens) and played to its end through the ``Game`` aggregate with the
ledger's seed, so its chance decisions re-derive and its hash chain holds:
an aged game audits like a fresh one.  The rows a move stores beside its
events on the server (its idempotency key in ``ledger_commands``, a receipt
over the head it leaves in ``ledger_receipts``) are written per move too,
with the ledger's own ``request_hash`` and signer.  Copying rows under new
game ids was the cheaper option and was refused: the chance stream's key
(``domain.contract.chance``) mixes in the game id, so a copied game's
shuffles would no longer re-derive and its audit would fail, whatever its
re-derived hashes said.  Playing in-process (no gRPC) costs about
5,000 events/s per core here, so 5 million events take tens of minutes
once; the database is then kept under a name derived from what it holds
(:func:`aged_name`) and every run measures a copy of it (``CREATE DATABASE
... TEMPLATE``), so a run's own writes never age the cached one.

Games are saved in batches of 16, one transaction per batch, as the
projection catch-up scenario prefills its log (:mod:`bench.projection_catchup`);
snapshots are off while building (a snapshot is a cache a server writes as
it plays, not history).  The views (stats, ratings, fairness, tournament
results) catch up from the log after play, and a Swiss tournament of 16
players is run through the tournament desk as the dashboard scenario does.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import time
import uuid
from typing import Any

import psycopg

from bench import db

FORMAT = "aged-log/1"
"""Bumped whenever what :func:`build` writes changes, so the key changes."""

PLAYERS = 1_000
"""A year of a club's players: every game seats a random few of them."""

BATCH = 16

REAL_EVENTS = 300_000
"""How many of the events are played; the rest are copies of those games."""


def content_key(
    events: int, mix: list[tuple[str, dict[str, Any]]], real_events: int
) -> str:
    """What the aged database holds: its format, its size and its game mix."""
    doc = json.dumps([FORMAT, events, real_events, mix], sort_keys=True).encode()
    return hashlib.sha256(doc).hexdigest()[:12]


def aged_name(
    events: int, mix: list[tuple[str, dict[str, Any]]], real_events: int
) -> str:
    return f"ledger_bench_aged_{content_key(events, mix, real_events)}"


def _exists(admin: str, name: str) -> bool:
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
    return row is not None


def _complete(url: str) -> dict[str, Any] | None:
    """The build's record, present only once a build finished."""
    try:
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "SELECT info FROM bench_aged_build WHERE complete"
            ).fetchone()
    except psycopg.Error:
        return None
    return dict(row[0]) if row else None


def _wait_for_builder(admin: str, name: str, poll_s: float = 10.0) -> None:
    """Wait while another process is connected to the database: a build under
    way in another run finishes rather than being dropped as interrupted."""
    while True:
        with psycopg.connect(admin, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
            ).fetchone()
        if not row or not row[0]:
            return
        print(f"[bench] waiting for the build of {name} under way", flush=True)
        time.sleep(poll_s)


def ensure(
    events: int,
    mix: list[tuple[str, dict[str, Any]]],
    rebuild: bool = False,
    workers: int = 2,
    real_events: int = REAL_EVENTS,
) -> tuple[str, dict[str, Any]]:
    """The cached aged database's name and its build record, built if missing.

    A database left by an interrupted build has no completion record and is
    dropped and built again; ``rebuild`` drops a complete one too.
    """
    admin = db.admin_url()
    name = aged_name(events, mix, real_events)
    url = db.with_dbname(admin, name)
    if not rebuild and _exists(admin, name):
        _wait_for_builder(admin, name)
        info = _complete(url)
        if info is not None:
            return name, {**info, "reused": True}
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    info = build(url, events, mix, workers, real_events)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE bench_aged_build (complete boolean NOT NULL, info jsonb NOT NULL)"
        )
        conn.execute(
            "INSERT INTO bench_aged_build VALUES (true, %s)",
            (psycopg.types.json.Jsonb(info),),
        )
        conn.execute("VACUUM ANALYZE")
    return name, {**info, "reused": False}


def copy_of(name: str) -> str:
    """A per-run copy of the cached database (a file copy: PostgreSQL 15+ ``FILE_COPY``)."""
    import secrets

    admin = db.admin_url()
    run = f"bench_aged_run_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        version = conn.info.server_version
        strategy = " STRATEGY FILE_COPY" if version >= 150000 else ""
        conn.execute(f'CREATE DATABASE "{run}" TEMPLATE "{name}"{strategy}')
    return run


def drop(name: str) -> None:
    with psycopg.connect(db.admin_url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _ledger(url: str, snapshots: bool = False) -> Any:
    from services.ledger.application import GameLedger
    from services.storage.database_env import eventsourcing_env

    env = eventsourcing_env(url, 4, pool_min=1)
    # a batch job: a view catching up five million events may think longer
    # than the server's 5 s between two statements on a busy machine
    env["POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT"] = "0"
    if snapshots:  # the snapshots table exists even when no game is ever snapshotted
        return GameLedger(env)
    env["IS_SNAPSHOTTING_ENABLED"] = "n"
    app = GameLedger(env)
    app.snapshotting_intervals = {}  # type: ignore[misc]  # eventsourcing types it ClassVar but reads it per instance
    return app


def play(
    app: Any, mix: list[tuple[str, dict[str, Any]]], events: int, seed: int
) -> dict[str, int]:
    """Play complete games of ``mix`` in turn until ``events`` events are stored.

    Each move also stores what the server stores beside it: the command's
    idempotency row and a receipt over the head it leaves.
    """
    from domain.games import find_game
    from services.ledger.log_tail import request_hash
    from services.storage.recorder import receipt_text

    rnd = random.Random(seed)
    players = [f"aged-player-{i:04d}" for i in range(PLAYERS)]
    stored = games = moves = 0
    while stored < events:
        batch: list[Any] = []
        heads: list[tuple[Any, ...]] = []
        commands: list[tuple[Any, ...]] = []
        receipts: list[tuple[Any, ...]] = []
        for _ in range(BATCH):
            if stored >= events and batch:
                break
            game_type, fields = mix[(seed + games) % len(mix)]
            games += 1
            ruleset = find_game(game_type)
            count = len(ruleset.player_seats(ruleset.setup_model(**fields)))
            created = app.create_game(
                game_type, fields, player_ids=tuple(rnd.sample(players, count))
            )
            game = app.load(created.game_id)
            seed_bytes = app.seed_of(created.game_id)
            gid = str(game.id)
            for _ in range(5000):
                if game.is_over:
                    break
                seat = rnd.choice(game.to_act())
                command = ruleset.random_command(game.state, seat, rnd)
                if command is None:  # no legal command: the game cannot go on
                    break
                command_id = str(uuid.UUID(int=rnd.getrandbits(128)))
                before = len(game.pending_events)
                game.act(command, seat, seed_bytes, command_id)
                new = game.pending_events[before:]
                if not new:
                    continue
                first, last = new[0], new[-1]
                moves += 1
                commands.append(
                    (
                        game.id,
                        command_id,
                        seat,
                        request_hash(command_id, command, seat),
                        first.originator_version,
                        last.originator_version,
                    )
                )
                receipt = app.signer.sign(
                    gid, last.originator_version, last.hash, last.timestamp.isoformat()
                )
                receipts.append(
                    (game.id, last.originator_version, receipt_text(receipt))
                )
            batch.append(game)
            heads.append(
                (
                    game.version,
                    "ended" if game.is_over else "active",
                    game.modified_on if game.is_over else None,
                    list(game.outcome.winners) if game.outcome else None,
                    game.head_hash,
                    game.id,
                )
            )
            stored += game.version
        app.save(*batch)
        with app.datastore.transaction(commit=True) as curs:
            curs.executemany(
                "UPDATE ledger_games SET version = %s, status = %s, ended_at = %s,"
                " winners = %s, head_hash = %s WHERE game_id = %s",
                heads,
            )
            with curs.copy(
                "COPY ledger_commands (game_id, command_id, actor, request_hash,"
                " first_version, last_version) FROM STDIN"
            ) as copy:
                for row in commands:
                    copy.write_row(row)
            with curs.copy(
                "COPY ledger_receipts (game_id, version, receipt) FROM STDIN"
            ) as copy:
                for row in receipts:
                    copy.write_row(row)
    return {"events": stored, "games": games, "moves": moves}


def _worker(args: tuple[str, list[tuple[str, dict[str, Any]]], int, int]) -> Any:
    url, mix, events, seed = args
    app = _ledger(url)
    try:
        return play(app, mix, events, seed)
    finally:
        app.close()


CLONE_ROUND = (
    """CREATE TEMP TABLE aged_round ON COMMIT DROP AS
    SELECT game_id AS src, gen_random_uuid() AS dst FROM ledger_games
    WHERE status = 'ended' AND game_id = ANY(%(games)s)""",
    """INSERT INTO ledger_events (originator_id, originator_version, topic, state)
    SELECT r.dst, e.originator_version, e.topic, e.state
    FROM aged_round r JOIN ledger_events e ON e.originator_id = r.src
    ORDER BY e.notification_id""",
    """INSERT INTO ledger_games (game_id, game_type, players, seats, content,
        created_at, status, version, ended_at, winners, player_ids,
        spectator_delay, head_hash, next_deadline)
    SELECT r.dst, g.game_type, g.players, g.seats, g.content, g.created_at,
        g.status, g.version, g.ended_at, g.winners, g.player_ids,
        g.spectator_delay, g.head_hash, g.next_deadline
    FROM aged_round r JOIN ledger_games g ON g.game_id = r.src""",
    """INSERT INTO ledger_commands (game_id, command_id, actor, request_hash,
        first_version, last_version, created_at)
    SELECT r.dst, c.command_id, c.actor, c.request_hash, c.first_version,
        c.last_version, c.created_at
    FROM aged_round r JOIN ledger_commands c ON c.game_id = r.src""",
    """INSERT INTO ledger_receipts (game_id, version, receipt)
    SELECT r.dst, x.version, x.receipt
    FROM aged_round r JOIN ledger_receipts x ON x.game_id = r.src""",
    """INSERT INTO ledger_seat_tokens (token_hash, game_id, player, seats, created_at)
    SELECT encode(sha256(gen_random_uuid()::text::bytea), 'hex'), r.dst,
        t.player, t.seats, t.created_at
    FROM aged_round r JOIN ledger_seat_tokens t ON t.game_id = r.src""",
    """INSERT INTO ledger_game_secrets (game_id, seed)
    SELECT r.dst, s.seed FROM aged_round r JOIN ledger_game_secrets s ON s.game_id = r.src""",
)
"""One round of copies: every real finished game once more under a new id,
with every row a game stores.  The copy's records keep the bytes of the
original, so they load, replay and render exactly as it does; they do not
audit (their hashes, receipts and chance stream name the original's id)."""


def clone(url: str, events: int) -> dict[str, Any]:
    """Copy the real games (rounds of :data:`CLONE_ROUND`) until ``events`` are stored."""
    t0 = time.perf_counter()
    rounds = 0
    with psycopg.connect(url, autocommit=True) as conn:
        real = conn.execute(
            "SELECT array_agg(game_id ORDER BY created_at), sum(version)"
            " FROM ledger_games WHERE status = 'ended'"
        ).fetchone() or (None, None)
        games, per_round = list(real[0] or []), int(real[1] or 0)
        (have,) = conn.execute("SELECT count(*) FROM ledger_events").fetchone() or (0,)
        have = start = int(have)
        while per_round and have < events:
            # the last round copies only as many games as the target still needs
            need, take, got = events - have, [], 0
            for gid, n in zip(games, _versions(conn, games), strict=True):
                if got >= need:
                    break
                take.append(gid)
                got += n
            with conn.transaction():
                for statement in CLONE_ROUND:
                    conn.execute(statement, {"games": take})
            have += got
            rounds += 1
    return {
        "copied_events": have - start,
        "clone_rounds": rounds,
        "clone_s": round(time.perf_counter() - t0, 1),
    }


def _versions(conn: Any, games: list[Any]) -> list[int]:
    rows = dict(
        conn.execute(
            "SELECT game_id, version FROM ledger_games WHERE game_id = ANY(%s)",
            (games,),
        ).fetchall()
    )
    return [int(rows[g]) for g in games]


def build(
    url: str,
    events: int,
    mix: list[tuple[str, dict[str, Any]]],
    workers: int,
    real_events: int,
) -> dict[str, Any]:
    """Fill the database at ``url``: ``real_events`` events of real games, copies
    of them up to ``events``, then the views from the log."""
    from bench.dashboard import _tournament
    from services.runtime.bootstrap import view_runners

    t0 = time.perf_counter()
    app = _ledger(url, snapshots=True)  # the ledger's tables, before the workers start
    try:
        runners = view_runners(app.datastore)
        for runner in runners:
            runner.ensure_tables()
        share = -(-min(events, real_events) // workers)
        jobs = [(url, mix, share, 1000 * (i + 1)) for i in range(workers)]
        if workers > 1:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(workers) as pool:
                done = pool.map(_worker, jobs)
        else:
            done = [_worker(jobs[0])]
        played_s = time.perf_counter() - t0
        cloned = clone(url, events)
        t1 = time.perf_counter()
        for runner in runners:
            runner.catch_up()
        views_s = time.perf_counter() - t1
        tournament_id = _tournament(app, runners)
    finally:
        app.close()
    return {
        "format": FORMAT,
        "target_events": events,
        "real_events": sum(d["events"] for d in done),
        "real_games": sum(d["games"] for d in done),
        "real_moves": sum(d["moves"] for d in done),
        **cloned,
        "workers": workers,
        "play_s": round(played_s, 1),
        "views_catch_up_s": round(views_s, 1),
        "build_s": round(time.perf_counter() - t0, 1),
        "tournament_id": str(tournament_id),
    }
