"""Starting a tournament round is safe across processes and crashes (real PostgreSQL).

Two ``TournamentDesk`` instances, each with its own ``GameLedger`` (own pools,
own caches), play the part of two server processes on one database.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest

from domain.contract.core import IllegalCommandError
from services.tournaments.desk import TournamentDesk

pytestmark = pytest.mark.postgres


class Crash(BaseException):
    """A process dying mid-call (not an ``Exception``: nothing may catch it)."""


@pytest.fixture
def desk_a(ledger):
    desk = TournamentDesk(ledger.env_for_peers, ledger)
    yield desk
    desk.close()


@pytest.fixture
def desk_b(fresh_ledger):
    desk = TournamentDesk(fresh_ledger.env_for_peers, fresh_ledger)
    yield desk
    desk.close()


def new_tournament(
    desk: TournamentDesk, players: int = 4
) -> tuple[uuid.UUID, list[str]]:
    tournament, _ = desk.create(
        f"t-{uuid.uuid4().hex[:6]}", "terralore", "round_robin", 0, 2, {}
    )
    names = [f"{uuid.uuid4().hex[:8]}-{n}" for n in range(players)]
    for name in names:
        desk.register(tournament.id, name)
    return tournament.id, names


def ledger_games_of(desk: TournamentDesk, names: list[str]) -> set[uuid.UUID]:
    """Every game in the ledger seating any of these (test-unique) players."""
    with desk.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT game_id FROM ledger_games WHERE player_ids && %s", (names,)
        )
        return {r["game_id"] for r in curs.fetchall()}


def rows(desk: TournamentDesk, sql: str, *params: Any) -> list[dict[str, Any]]:
    with desk.datastore.transaction(commit=False) as curs:
        curs.execute(sql, params)
        return list(curs.fetchall())


def recorded_games(desk: TournamentDesk, tid: uuid.UUID) -> set[uuid.UUID]:
    return {
        r["game_id"]
        for r in rows(
            desk, "SELECT game_id FROM tournament_games WHERE tournament_id = %s", tid
        )
    }


def slow_create_games(
    monkeypatch: pytest.MonkeyPatch, desk: TournamentDesk, created: list[uuid.UUID]
) -> None:
    """Make the window between pairing and recording wide enough to race in."""
    real = desk.ledger.create_game

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        result = real(*args, **kwargs)
        created.append(result.game_id)
        return result

    monkeypatch.setattr(desk.ledger, "create_game", slow)


def test_two_processes_starting_the_same_round_create_one_set_of_games(
    desk_a, desk_b, monkeypatch
):
    tid, names = new_tournament(desk_a)
    created: list[uuid.UUID] = []
    slow_create_games(monkeypatch, desk_a, created)
    slow_create_games(monkeypatch, desk_b, created)
    barrier = threading.Barrier(2)
    outcomes: dict[str, Any] = {}

    def start(label: str, desk: TournamentDesk) -> None:
        barrier.wait()
        try:
            outcomes[label] = desk.start_round(tid)
        except Exception as exc:  # noqa: BLE001 - recorded for the assertions
            outcomes[label] = exc

    threads = [
        threading.Thread(target=start, args=(label, d))
        for label, d in (("a", desk_a), ("b", desk_b))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)

    winners = [o for o in outcomes.values() if not isinstance(o, BaseException)]
    losers = [o for o in outcomes.values() if isinstance(o, BaseException)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    assert (
        isinstance(losers[0], IllegalCommandError)
        and losers[0].rule == "tournament.round-incomplete"
    )
    (round_,) = winners[0].state.round_records
    game_ids = {uuid.UUID(t.game_id) for t in round_.tables}
    assert len(game_ids) == 2
    assert sorted(created) == sorted(game_ids), (
        "the losing process must not create games"
    )
    assert ledger_games_of(desk_a, names) == game_ids == recorded_games(desk_a, tid)
    for desk in (desk_a, desk_b):
        assert desk.load(tid).state.current_round == 1
    assert not rows(
        desk_a, "SELECT * FROM tournament_pending_games WHERE tournament_id = %s", tid
    )
    assert not rows(
        desk_a, "SELECT * FROM tournament_round_intents WHERE tournament_id = %s", tid
    )


def test_a_retry_after_a_crash_before_the_save_adopts_the_games_already_created(
    desk_a, desk_b, monkeypatch
):
    tid, names = new_tournament(desk_a)
    created: list[uuid.UUID] = []
    slow_create_games(monkeypatch, desk_a, created)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise Crash("killed between creating the games and recording the round")

    monkeypatch.setattr(desk_a, "save", crash)
    with pytest.raises(Crash):
        desk_a.start_round(tid)
    assert len(created) == 2 and desk_b.load(tid).state.current_round == 0
    pending = rows(
        desk_b,
        "SELECT tokens FROM tournament_pending_games WHERE tournament_id = %s",
        tid,
    )
    assert len(pending) == 2
    assert all(set(t) == {"player", "seats"} for r in pending for t in r["tokens"])

    started = desk_b.start_round(tid)  # the organiser retries; another process answers

    (round_,) = started.state.round_records
    assert sorted(uuid.UUID(t.game_id) for t in round_.tables) == sorted(created)
    assert ledger_games_of(desk_b, names) == set(created) == recorded_games(desk_b, tid)
    for table in round_.tables:  # the adopted games' tokens are real seat tokens
        for seat, player in enumerate(table.players):
            (mine,) = [
                g
                for g in desk_b.my_games(tid, player, f"player-token-of-{player}")
                if str(g["game_id"]) == table.game_id
            ]
            grant = desk_b.ledger.grant_for_token(mine["token"])
            assert (
                grant is not None
                and str(grant.game_id) == table.game_id
                and grant.seats == (seat,)
            )
    # seat tokens are derived from the player's token: none is stored in clear
    stored = rows(
        desk_b, "SELECT token FROM tournament_seat_tokens WHERE tournament_id = %s", tid
    )
    assert stored and all(r["token"] is None for r in stored)
    assert not rows(
        desk_b, "SELECT * FROM tournament_pending_games WHERE tournament_id = %s", tid
    )


def test_a_game_created_just_before_a_crash_is_found_as_lost_and_replaced(
    desk_a, desk_b, monkeypatch
):
    tid, names = new_tournament(desk_a)
    created: list[uuid.UUID] = []
    slow_create_games(monkeypatch, desk_a, created)
    real_journal = desk_a.rounds._journal_game

    def journal_then_crash(game_id: uuid.UUID, *args: Any) -> None:
        if len(created) == 2:
            raise Crash(
                "killed after the ledger committed table 2, before its journal row"
            )
        real_journal(game_id, *args)

    monkeypatch.setattr(desk_a.rounds, "_journal_game", journal_then_crash)
    with pytest.raises(Crash):
        desk_a.start_round(tid)
    table_1, lost = created

    started = desk_b.start_round(tid)

    (round_,) = started.state.round_records
    recorded = [uuid.UUID(t.game_id) for t in round_.tables]
    assert recorded[0] == table_1 and recorded[1] not in (table_1, lost)
    pending = rows(
        desk_b,
        "SELECT game_id, round, table_no, status FROM tournament_pending_games"
        " WHERE tournament_id = %s",
        tid,
    )
    assert pending == [{"game_id": lost, "round": 1, "table_no": 2, "status": "lost"}]
    # no undetected orphan: every game of these players is recorded or marked lost
    assert ledger_games_of(desk_b, names) == set(recorded) | {lost}


def test_a_retry_does_not_mistake_the_same_players_own_game_for_a_lost_one(
    desk_a, desk_b, monkeypatch
):
    tid, names = new_tournament(desk_a, players=2)
    monkeypatch.setattr(
        desk_a.rounds,
        "_journal_game",
        lambda *a: (_ for _ in ()).throw(Crash("after commit")),
    )
    with pytest.raises(Crash):
        desk_a.start_round(tid)
    (lost,) = ledger_games_of(desk_a, names)
    own = desk_b.ledger.create_game(
        "terralore", {"players": 2}, entropy=("friendly",), player_ids=tuple(names)
    )

    started = desk_b.start_round(tid)

    (table,) = started.state.round_records[0].tables
    assert uuid.UUID(table.game_id) not in (lost, own.game_id)
    statuses = rows(
        desk_b,
        "SELECT game_id, status FROM tournament_pending_games WHERE tournament_id = %s",
        tid,
    )
    assert statuses == [{"game_id": lost, "status": "lost"}]


def test_a_token_commits_with_its_event_or_not_at_all(desk_a, desk_b) -> None:
    """The desk's rows ride in the event's transaction: a registration whose
    event loses a race (another process registered first) stores no token."""
    from eventsourcing.persistence import IntegrityError

    from services.storage.recorder import hash_token
    from services.storage.tournament_rows import TokenGrant

    tid, _ = new_tournament(desk_a, players=1)
    stale = desk_a.load(tid)
    desk_b.register(tid, "first")  # moves the tournament on in the other process
    stale.register("second")
    token = hash_token("never-handed-out")
    with pytest.raises(IntegrityError):
        desk_a.save(stale, tournament_rows=[TokenGrant(token, tid, "player", "second")])
    with desk_a.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT count(*) AS n FROM tournament_tokens WHERE token_hash = %s",
            (token,),
        )
        assert curs.fetchone()["n"] == 0
    desk_a.save(
        desk_a.load(tid), tournament_rows=[TokenGrant(token, tid, "player", "x")]
    )
    with desk_a.datastore.transaction(
        commit=False
    ) as curs:  # and the same row commits alone
        curs.execute(
            "SELECT count(*) AS n FROM tournament_tokens WHERE token_hash = %s",
            (token,),
        )
        assert curs.fetchone()["n"] == 1
