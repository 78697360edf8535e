"""The ledger's guarantees, each checked against a real PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import random
import threading
import uuid

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from domain.audit.game_audit import audit_records
from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.games import find_game
from domain.ledger.records import canonical_json, event_hash
from services.ledger.application import (
    CommandIdReusedError,
    ConcurrencyConflictError,
    GameLedger,
)
from tests.support.database import scalar

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def random_move(ledger: GameLedger, game_id: uuid.UUID, rnd: random.Random) -> bool:
    game = ledger.load(game_id)
    if game.is_over:
        return False
    seat = rnd.choice(game.to_act())
    command = THALARA.random_command(game.state, seat, rnd)
    assert command is not None, "a seat that must act has a legal move"
    ledger.submit(game_id, command, seat, str(uuid.uuid4()))
    return True


def play_to_end(ledger: GameLedger, game_id: uuid.UUID, seed: int = 0) -> None:
    rnd = random.Random(seed)
    for _ in range(5000):
        if not random_move(ledger, game_id, rnd):
            return
    raise AssertionError("game did not end")


def event_count(conn: psycopg.Connection, game_id: uuid.UUID) -> int:
    return int(
        scalar(
            conn.execute(
                "SELECT count(*) FROM ledger_events WHERE originator_id = %s",
                (game_id,),
            )
        )
    )


def test_event_rows_cannot_be_updated_deleted_or_truncated(ledger, database_url):
    created = ledger.create_game("thalara", SETUP)
    with psycopg.connect(database_url, autocommit=True) as conn:
        for statement in (
            "UPDATE ledger_events SET topic = 'x' WHERE originator_id = %s",
            "DELETE FROM ledger_events WHERE originator_id = %s",
        ):
            with pytest.raises(
                psycopg.errors.InsufficientPrivilege, match="append-only"
            ):
                conn.execute(statement, (created.game_id,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute("TRUNCATE ledger_events")
        assert (
            event_count(conn, created.game_id) == ledger.load(created.game_id).version
        )


def test_a_retried_command_returns_the_original_result_and_stores_nothing(
    ledger, fresh_ledger, superuser
):
    created = ledger.create_game("thalara", SETUP)
    game = ledger.load(created.game_id)
    seat = game.to_act()[0]
    command = THALARA.random_command(game.state, seat, random.Random(3))
    first = ledger.submit(created.game_id, command, seat, "cmd-1")
    before = event_count(superuser, created.game_id)
    again = ledger.submit(created.game_id, command, seat, "cmd-1")
    after_restart = fresh_ledger.submit(created.game_id, command, seat, "cmd-1")
    assert not first.replayed and again.replayed and after_restart.replayed
    assert (again.first_version, again.last_version) == (
        first.first_version,
        first.last_version,
    )
    assert (after_restart.first_version, after_restart.last_version) == (
        first.first_version,
        first.last_version,
    )
    assert event_count(superuser, created.game_id) == before


def test_a_command_id_reused_for_another_move_is_refused(ledger, superuser):
    created = ledger.create_game("thalara", SETUP)
    game = ledger.load(created.game_id)
    seat = game.to_act()[0]
    rnd = random.Random(5)
    ledger.submit(
        created.game_id,
        THALARA.random_command(game.state, seat, rnd),
        seat,
        "same",
    )
    game = ledger.load(created.game_id)
    other = game.to_act()[0]
    before = event_count(superuser, created.game_id)
    with pytest.raises(CommandIdReusedError):
        ledger.submit(
            created.game_id,
            THALARA.random_command(game.state, other, rnd),
            other,
            "same",
        )
    assert event_count(superuser, created.game_id) == before


def test_illegal_and_malformed_moves_store_nothing(ledger, superuser):
    created = ledger.create_game("thalara", SETUP)
    game = ledger.load(created.game_id)
    seat = game.to_act()[0]
    before = event_count(superuser, created.game_id)
    PlayCard = THALARA.commands_by_name["PlayCard"]
    with pytest.raises(IllegalCommandError) as illegal:
        ledger.submit(
            created.game_id,
            PlayCard(
                card=game.state.players[seat].supply[0],
                conflict=game.state.conflicts[0].artifact,
            ),
            seat,
            "bad-1",
        )
    assert illegal.value.rule
    with pytest.raises(InvalidCommandError):
        ledger.submit(
            created.game_id, PlayCard(card="no-such-card", conflict="x"), seat, "bad-2"
        )
    with pytest.raises(InvalidCommandError):
        ledger.submit(created.game_id, PlayCard(card="x", conflict="y"), 7, "bad-3")
    assert event_count(superuser, created.game_id) == before


def test_racing_clients_get_exactly_one_move_per_decision_point(
    ledger, fresh_ledger, monkeypatch
):
    """Both seats race with expected_version on the same decision point: both have
    decided before either saves (a barrier in front of each process's commit), so
    the loser loses at the save, not at the version check before deciding."""
    created = ledger.create_game("thalara", SETUP)
    game = ledger.load(created.game_id)
    version = game.version
    rnd = random.Random(11)
    moves = {
        seat: THALARA.random_command(game.state, seat, rnd) for seat in game.to_act()
    }
    assert len(moves) == 2  # hand selection is simultaneous
    results: dict[int, object] = {}
    barrier = threading.Barrier(len(moves))
    decided = threading.Barrier(len(moves))
    for app in (ledger, fresh_ledger):
        real_enqueue = app._committer.enqueue

        def enqueue(append, _real=real_enqueue):
            decided.wait(30)
            return _real(append)

        monkeypatch.setattr(app._committer, "enqueue", enqueue)

    def race(seat: int, app: GameLedger) -> None:
        barrier.wait()
        try:
            results[seat] = app.submit(
                created.game_id,
                moves[seat],
                seat,
                f"race-{seat}",
                expected_version=version,
            )
        except ConcurrencyConflictError as exc:
            results[seat] = exc

    threads = [
        threading.Thread(target=race, args=(seat, app))
        for seat, app in zip(moves, (ledger, fresh_ledger))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    accepted = [r for r in results.values() if not isinstance(r, Exception)]
    refused = [r for r in results.values() if isinstance(r, ConcurrencyConflictError)]
    assert len(accepted) == 1 and len(refused) == 1
    assert str(refused[0]) == "another move was recorded first"  # lost at the save
    head = fresh_ledger.load(created.game_id)
    assert head.version == accepted[0].last_version


@pytest.mark.parametrize("record", ["own", "shared"])
def test_without_expected_version_a_lost_race_is_retried_on_the_new_state(
    own_ledger, fresh_ledger, monkeypatch, tmp_path, record
):
    """This process decides on the game it holds while another process has already
    recorded a move: the save loses the race (or, when both share the signer's
    record, the signer sees the version already signed first), and the move is
    re-decided on the new state and recorded after the other one, with no alarm."""
    from services.storage.signed_heads import SignedHeadsFile

    if record == "own":  # another host: a signer record of its own
        monkeypatch.setattr(
            own_ledger.head_signer, "record", SignedHeadsFile.in_dir(tmp_path)
        )
    own_ledger.heads.listening()  # the cache vouches for what this process wrote...
    created = own_ledger.create_game("thalara", SETUP)
    gid = created.game_id
    game = own_ledger.cache.vouched(gid)  # held by this process at its creation version
    assert game is not None
    rnd = random.Random(12)
    moves = {
        seat: THALARA.random_command(game.state, seat, rnd) for seat in game.to_act()
    }
    assert set(moves) == {0, 1}  # the secret hand selection: both seats may act
    elsewhere = fresh_ledger.submit(gid, moves[1], 1, "retry-1")
    fresh_ledger.head_signer.close()  # its record line on disk (written within 20 ms)
    # ...and its NOTIFY has not arrived yet: the held copy is stale but vouched
    held = own_ledger.cache.vouched(gid)
    assert held is not None and held.version == game.version < elsewhere.last_version
    saves: list[str] = []
    real_append = own_ledger._committer._append

    def append(appends):
        try:
            recorded = real_append(appends)
        except IntegrityError:
            saves.append("lost")
            raise
        saves.append("saved")
        return recorded

    monkeypatch.setattr(own_ledger._committer, "_append", append)
    result = own_ledger.submit(gid, moves[0], 0, "retry-0")
    # the race happened, then the retry won
    assert saves == (["lost", "saved"] if record == "own" else ["saved"])
    assert own_ledger.head_signer.alarm is None
    assert result.first_version == elsewhere.last_version + 1
    # final state equals a serial replay of the stored events
    events = [
        e.payload for e in fresh_ledger.store.events(gid) if hasattr(e, "payload")
    ]
    live = fresh_ledger.load(gid)
    assert THALARA.replay(THALARA.initial_state(live.setup), events) == live.state
    assert live.state.phase == "play"  # both hands are in: the selection is over


def test_a_finished_game_audits_ok_and_reveals_the_committed_seed(ledger):
    created = ledger.create_game("thalara", SETUP, entropy=("alice's dice", "bob"))
    play_to_end(ledger, created.game_id, seed=21)
    game = ledger.load(created.game_id)
    assert game.is_over and game.revealed_seed
    assert (
        hashlib.sha256(bytes.fromhex(game.revealed_seed)).hexdigest()
        == game.seed_commitment
    )
    report = audit_records(str(created.game_id), ledger.read_records(created.game_id))
    assert report.ok, report.failures
    assert report.seed_source == "revealed"
    assert report.decisions_rederived == len(
        {e.decision for e in ledger.store.events(created.game_id)[1:]}
    )


def _tamper(
    superuser: psycopg.Connection, game_id: uuid.UUID, version: int, state: bytes
) -> None:
    """What a DBA with superuser rights could do, bypassing the trigger."""
    with superuser.transaction():
        superuser.execute("SET LOCAL session_replication_role = replica")
        superuser.execute(
            "UPDATE ledger_events SET state = %s WHERE originator_id = %s AND originator_version = %s",
            (state, game_id, version),
        )


def test_an_altered_event_row_is_named_by_the_audit(ledger, superuser):
    created = ledger.create_game("thalara", SETUP)
    play_to_end(ledger, created.game_id, seed=22)
    rows = ledger.read_records(created.game_id)
    version, _, state = rows[9]
    record = json.loads(state)
    record["timestamp"] = record["timestamp"].replace("20", "19", 1)
    _tamper(superuser, created.game_id, version, canonical_json(record))
    report = audit_records(str(created.game_id), ledger.read_records(created.game_id))
    assert not report.ok
    assert report.failures[0].version == version and report.failures[0].check == "hash"


def test_a_rewritten_chain_with_a_different_shuffle_fails_rederivation(
    ledger, superuser
):
    """Even a forger who recomputes every hash cannot fake chance: the seed decides."""
    created = ledger.create_game("thalara", SETUP)
    play_to_end(ledger, created.game_id, seed=23)
    rows = ledger.read_records(created.game_id)
    gid = str(created.game_id)
    prev = rows[0][2] and json.loads(rows[0][2])["hash"]
    forged_at = None
    for version, topic, state in rows[1:]:
        record = json.loads(state)
        if forged_at is None and topic == "thalara.ArtifactsShuffled":
            order = record["body"]["payload"]["order"]
            order[0], order[1] = order[1], order[0]  # a "luckier" stack for someone
            forged_at = version
        record["prev_hash"] = prev
        record["hash"] = event_hash(
            game_id=gid,
            version=version,
            type_=topic,
            timestamp=record["timestamp"],
            prev_hash=prev,
            body=record["body"],
            alg=record["alg"],
            nonce=record.get("nonce"),
        )
        prev = record["hash"]
        _tamper(superuser, created.game_id, version, canonical_json(record))
    assert forged_at is not None
    report = audit_records(gid, ledger.read_records(created.game_id))
    assert not report.ok
    assert report.failures[0].version == forged_at
    assert report.failures[0].check in {"rederive", "rules"}


def test_a_deleted_event_breaks_the_chain_at_that_point(ledger, superuser):
    created = ledger.create_game("thalara", SETUP)
    for seed in range(6):
        random_move(ledger, created.game_id, random.Random(seed))
    rows = ledger.read_records(created.game_id)
    with superuser.transaction():
        superuser.execute("SET LOCAL session_replication_role = replica")
        superuser.execute(
            "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version = %s",
            (created.game_id, rows[4][0]),
        )
    report = audit_records(str(created.game_id), ledger.read_records(created.game_id))
    assert not report.ok and report.failures[0].version == rows[5][0]


def test_rebuilding_from_a_snapshot_equals_a_full_replay(
    ledger, fresh_ledger, database_url
):
    created = ledger.create_game("thalara", SETUP)
    play_to_end(ledger, created.game_id, seed=24)
    with psycopg.connect(database_url) as conn:
        snapshots = conn.execute(
            "SELECT count(*) FROM ledger_snapshots WHERE originator_id = %s",
            (created.game_id,),
        ).fetchone()[0]
    assert snapshots >= 2
    from_snapshot = fresh_ledger.load(created.game_id)
    events = fresh_ledger.store.events(created.game_id)
    full = THALARA.replay(
        THALARA.initial_state(from_snapshot.setup),
        [e.payload for e in events if hasattr(e, "payload")],
    )
    assert from_snapshot.state == full
    assert from_snapshot.head_hash == events[-1].hash
    assert from_snapshot.outcome == events[-1].outcome


def test_point_in_time_state_equals_a_replay_of_the_prefix(ledger):
    created = ledger.create_game("thalara", SETUP)
    play_to_end(ledger, created.game_id, seed=25)
    events = ledger.store.events(created.game_id)
    for version in (1, 2, 5, 13, len(events) - 1):
        past = ledger.load(created.game_id, version)
        prefix = [e.payload for e in events[:version] if hasattr(e, "payload")]
        assert past.version == version
        assert past.state == THALARA.replay(THALARA.initial_state(past.setup), prefix)


def test_reads_come_from_memory_only_while_notifications_vouch_for_them(
    ledger, fresh_ledger
):
    """Two processes on one database: B's held game stays an answer only until
    A's move is notified (services.ledger.heads); without a listener B always reads."""
    created = ledger.create_game("thalara", SETUP)
    rnd = random.Random(31)
    fresh_ledger.heads.listening()
    held = fresh_ledger.load(created.game_id)
    random_move(ledger, created.game_id, rnd)  # A records a move B does not know of
    moved = ledger.load(created.game_id).version
    assert moved > held.version
    assert fresh_ledger.load(created.game_id).version == held.version, (
        "served from memory"
    )
    fresh_ledger.heads.saw(str(created.game_id), moved)  # the NOTIFY arrives
    assert fresh_ledger.load(created.game_id).version == moved
    random_move(ledger, created.game_id, rnd)
    fresh_ledger.heads.deaf()  # the listening connection dropped: nothing held is trusted
    assert (
        fresh_ledger.load(created.game_id).version
        == ledger.load(created.game_id).version
    )


def test_snapshots_are_taken_from_the_saved_aggregate_at_each_interval(
    ledger, fresh_ledger, database_url
):
    created = ledger.create_game("thalara", SETUP)
    play_to_end(ledger, created.game_id, seed=32)
    interval = ledger.snapshot_interval
    with psycopg.connect(database_url) as conn:
        versions = [
            r[0]
            for r in conn.execute(
                "SELECT originator_version FROM ledger_snapshots WHERE originator_id = %s"
                " ORDER BY originator_version",
                (created.game_id,),
            )
        ]
    head = ledger.load(created.game_id).version
    assert len(versions) == head // interval
    for version in versions:
        past = fresh_ledger.load(created.game_id, version)
        replayed = THALARA.replay(
            THALARA.initial_state(past.setup),
            [
                e.payload
                for e in fresh_ledger.store.events(created.game_id, 0, version)
                if hasattr(e, "payload")
            ],
        )
        assert past.state == replayed


def test_a_live_tail_from_memory_equals_the_store_and_is_refused_when_unvouched(
    ledger, fresh_ledger
):
    from services.ledger.game_cache import RECENT_EVENTS

    created = ledger.create_game("thalara", SETUP)
    ledger.heads.listening()
    rnd = random.Random(33)
    start = 0
    while ledger.load(created.game_id).version <= RECENT_EVENTS + 2:
        random_move(ledger, created.game_id, rnd)
    head = ledger.load(created.game_id).version
    stored = ledger.store.events(created.game_id, start)
    reads: list[int] = []
    real_events = ledger.store.events

    def events(game_id, after=0, upto=None, limit=None):
        reads.append(after)
        return real_events(game_id, after, upto, limit)

    ledger.store.events = events

    def since(after):
        now, tail = ledger.cache.since(created.game_id, after)
        return now.version, [(e.originator_version, e.hash) for e in tail]

    def expected(events, after):
        return [
            (e.originator_version, e.hash)
            for e in events
            if e.originator_version > after
        ]

    kept_from = max(start, head - RECENT_EVENTS)  # the tail memory holds
    for after in range(kept_from, head + 1):
        assert since(after) == (head, expected(stored, after))
    assert reads == [], "the live tail came from memory"
    assert since(kept_from - 1) == (head, expected(stored, kept_from - 1))
    assert reads == [kept_from - 1], "older than the tail: read the store"
    random_move(fresh_ledger, created.game_id, rnd)  # another process moves
    now = fresh_ledger.load(created.game_id).version
    ledger.heads.saw(str(created.game_id), now)
    everything = real_events(created.game_id, start)
    assert since(head - 1) == (now, expected(everything, head - 1))
    assert reads[1:] == [head], "not vouched after the notification: read what is new"
    ledger.heads.deaf()
    reads.clear()
    assert since(now) == (now, [])
    assert reads == [now], "nothing is vouched while deaf"
