"""Two servers on one database race ``StartRound``: no duplicate round, never INTERNAL."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest

from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as rpc
from services.tournaments.desk import TournamentDesk

pytestmark = pytest.mark.e2e


@contextmanager
def second_server(settings: Any) -> Iterator[tuple[rpc.TournamentServiceStub, Any]]:
    """Another server "process": its own ledger (pools, caches), desk and port."""
    from services.runtime.bootstrap import Wiring, build_ledger
    from services.runtime.server import create_server

    quiet = settings.model_copy(update={"projections": False})
    ledger = build_ledger(quiet)
    wiring = Wiring(
        quiet, quiet.database_url, ledger, quiet.admin_token.get_secret_value()
    )
    loop = asyncio.new_event_loop()
    running = loop.run_until_complete(create_server(wiring, "127.0.0.1:0"))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    try:
        yield rpc.TournamentServiceStub(channel), ledger
    finally:
        channel.close()
        asyncio.run_coroutine_threadsafe(running.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        ledger.close()


def admin(server: Any) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {server.admin_token}"),)


def new_tournament(
    stub: rpc.TournamentServiceStub, auth: Any, format: str, rounds: int
) -> tuple[str, list[str]]:
    created = stub.CreateTournament(
        pb.CreateTournamentRequest(
            name="race",
            game_type="terralore",
            format=format,
            rounds=rounds,
            table_size=2,
            setup_json="{}",
        ),
        metadata=auth,
    )
    tid = created.tournament.tournament_id
    players = [f"{uuid.uuid4().hex[:6]}-{n}" for n in range(4)]
    for p in players:
        stub.RegisterPlayer(
            pb.RegisterPlayerRequest(tournament_id=tid, player_id=p), metadata=auth
        )
    return tid, players


def slow(
    monkeypatch: pytest.MonkeyPatch,
    ledger: Any,
    before: Any = None,
    created: Any = None,
) -> None:
    real = ledger.create_game

    def create_game(*args: Any, **kwargs: Any) -> Any:
        if before is not None:
            before()
        time.sleep(0.3)
        result = real(*args, **kwargs)
        if created is not None:
            created.append(str(result.game_id))
        return result

    monkeypatch.setattr(ledger, "create_game", create_game)


def test_start_round_raced_on_two_servers_starts_it_once_and_never_fails_internally(
    grpc_server, ledger, settings, monkeypatch
):
    one = rpc.TournamentServiceStub(grpc_server.channel)
    with second_server(settings) as (two, other_ledger):
        tid, _ = new_tournament(one, admin(grpc_server), "round_robin", 0)
        slow(monkeypatch, ledger)
        slow(monkeypatch, other_ledger)
        barrier = threading.Barrier(2)
        outcomes: list[Any] = []

        def start(stub: rpc.TournamentServiceStub) -> None:
            barrier.wait()
            try:
                outcomes.append(
                    stub.StartRound(
                        pb.StartRoundRequest(tournament_id=tid),
                        metadata=admin(grpc_server),
                        timeout=60,
                    )
                )
            except grpc.RpcError as error:
                outcomes.append(error)

        threads = [threading.Thread(target=start, args=(s,)) for s in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)

        errors = [o for o in outcomes if isinstance(o, grpc.RpcError)]
        rounds = [o for o in outcomes if isinstance(o, pb.Round)]
        assert len(rounds) == 1 and len(errors) == 1, outcomes
        assert errors[0].code() == grpc.StatusCode.FAILED_PRECONDITION, errors[
            0
        ].details()
        assert "round 1 still has games" in errors[0].details()
        for stub in (one, two):
            listed = stub.ListRounds(pb.ListRoundsRequest(tournament_id=tid)).rounds
            assert [(r.round, [t.game_id for t in r.tables]) for r in listed] == [
                (1, [t.game_id for t in rounds[0].tables])
            ]


def test_a_save_that_loses_to_an_unlocked_writer_is_aborted_not_internal(
    grpc_server, ledger, settings, monkeypatch
):
    one = rpc.TournamentServiceStub(grpc_server.channel)
    with second_server(settings) as (two, other_ledger):
        tid, players = new_tournament(one, admin(grpc_server), "swiss", 2)
        interloper = TournamentDesk(ledger.env_for_peers, ledger)
        done: list[bool] = []

        def write_without_the_lock() -> None:
            # a writer that bypasses the desk's advisory lock (an old server
            # version during a rolling deploy, say) moves the tournament on
            if not done:
                done.append(True)
                tournament = interloper.load(uuid.UUID(tid))
                tournament.withdraw(players[-1])
                interloper.save(tournament)

        created: list[str] = []
        slow(monkeypatch, other_ledger, before=write_without_the_lock, created=created)
        with pytest.raises(grpc.RpcError) as lost:
            two.StartRound(
                pb.StartRoundRequest(tournament_id=tid),
                metadata=admin(grpc_server),
                timeout=60,
            )
        assert lost.value.code() == grpc.StatusCode.ABORTED
        assert (
            lost.value.details()
            == "another request changed this first; reload and retry"
        )
        first_attempt = set(created)
        assert len(first_attempt) == 2

        retried = two.StartRound(
            pb.StartRoundRequest(tournament_id=tid),
            metadata=admin(grpc_server),
            timeout=60,
        )
        assert (
            retried.round == 1 and len(retried.tables) == 1 and len(retried.byes) == 1
        )
        seated = {*retried.tables[0].players, *retried.byes}
        assert seated == set(players[:-1])
        with interloper.datastore.transaction(commit=False) as curs:
            curs.execute(
                "SELECT game_id, status FROM tournament_pending_games WHERE tournament_id = %s",
                (tid,),
            )
            leftovers = {str(r["game_id"]): r["status"] for r in curs.fetchall()}
        interloper.close()
        # the aborted attempt's games were journalled: the retry adopts the one
        # whose table it seats the same way, and keeps the other as abandoned
        # (never handed out); nothing is left pending as "created"
        adopted = first_attempt & {t.game_id for t in retried.tables}
        assert set(leftovers.values()) <= {"abandoned"}
        assert adopted | set(leftovers) == first_attempt and not adopted & set(
            leftovers
        )
