"""Spectator delay: spectators watch a running game some moves or
seconds behind through every read RPC, players and the admin stay live, and
the delay is lifted when the game ends."""

from __future__ import annotations

import random
import threading
import time
import uuid

import grpc
import pytest

from domain.audit.game_audit import audit_records
from domain.contract.core import SPECTATOR
from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.api.client import Table, create, play_one, play_to_end
from services.proto import convert
from tests.e2e.leak_probe import Reader, frames

pytestmark = pytest.mark.e2e


def delayed(server, game_type: str, delay: pb.SpectatorDelay, **setup) -> Table:
    ruleset = find_game(game_type)
    response = server.call(
        "CreateGame",
        pb.CreateGameRequest(
            game_type=game_type,
            setup=convert.model_to_any(ruleset, ruleset.setup_model(**setup)),
            spectator_delay=delay,
        ),
    )
    tokens = {seat: t.token for t in response.tokens for seat in t.seats}
    return Table(response.game.game_id, tokens, response)


def version_for(server, table: Table, token: str | None) -> int:
    return server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), token
    ).game.version


def listed_version(server, table: Table, token: str | None) -> int:
    page = server.call("ListGames", pb.ListGamesRequest(page_size=500), token)
    (row,) = [g for g in page.games if g.game_id == table.game_id]
    return row.version


def test_spectators_watch_two_moves_behind_through_every_read_rpc(grpc_server, ledger):
    thalara = find_game("thalara")
    table = delayed(
        grpc_server,
        "thalara",
        pb.SpectatorDelay(moves=2),
        players=2,
        characters=["myrja", "canto"],
    )
    other = create(grpc_server, "terralore", players=2)
    reader = Reader(grpc_server.channel)
    game_id = uuid.UUID(table.game_id)
    spectators = {"no token": None, "other game's token": other.tokens[0]}
    shown = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id))
    assert shown.game.spectator_delay.moves == 2
    created = next(
        iter(
            grpc_server.call(
                "StreamGameEvents",
                pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True),
            )
        )
    )
    assert (
        convert.message_class("ledger.v1.GameCreated")
        .FromString(created.payload.value)
        .spectator_delay.moves
        == 2
    )

    opening = ledger.load(game_id).version
    heads = [opening]
    rnd = random.Random(4)
    live: list[int] = []
    stream = grpc_server.stub.StreamGameEvents(
        pb.StreamGameEventsRequest(game_id=table.game_id), timeout=120
    )
    watcher = threading.Thread(
        target=lambda: live.extend(e.version for e in stream), daemon=True
    )
    watcher.start()
    for _ in range(6):
        heads.append(play_one(grpc_server, table, rnd).last_version)
        expected = heads[-3] if len(heads) >= 3 else opening
        assert version_for(grpc_server, table, table.tokens[0]) == heads[-1]
        assert version_for(grpc_server, table, grpc_server.admin_token) == heads[-1]
        for role, token in spectators.items():
            got = grpc_server.call(
                "GetGame", pb.GetGameRequest(game_id=table.game_id), token
            )
            assert got.game.version == expected, role
            assert convert.model_from_any(thalara, got.view, thalara.view_model) == (
                thalara.view(ledger.load(game_id, expected).state, SPECTATOR)
            )
            events = list(
                grpc_server.call(
                    "StreamGameEvents",
                    pb.StreamGameEventsRequest(
                        game_id=table.game_id, stop_at_head=True
                    ),
                    token,
                )
            )
            assert events[-1].version == expected, role
            assert frames(reader, table.game_id, token)[-1].event.version == expected
            assert listed_version(grpc_server, table, token) == expected, role
        assert listed_version(grpc_server, table, table.tokens[1]) == heads[-1]
        with pytest.raises(grpc.RpcError) as ahead:
            grpc_server.call(
                "GetGame",
                pb.GetGameRequest(game_id=table.game_id, at_version=heads[-1]),
            )
        assert ahead.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    deadline = time.monotonic() + 10
    while (not live or live[-1] < heads[-3]) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    assert live[-1] == heads[-3], "the live stream ran ahead of (or behind) the delay"

    play_to_end(grpc_server, table, seed=2)
    head = ledger.load(game_id).version
    watcher.join(10)
    assert live[-1] == head  # the delay is lifted at the end
    for token in spectators.values():
        assert version_for(grpc_server, table, token) == head
        assert listed_version(grpc_server, table, token) == head
    report = audit_records(table.game_id, ledger.read_records(game_id))
    assert report.ok, report.failures  # the delay is hashed with GameCreated
    assert b'"spectator_delay":{"moves":2}' in ledger.read_records(game_id)[0][2]


def test_a_delay_in_seconds_holds_each_move_back_that_long(grpc_server, ledger):
    table = delayed(grpc_server, "terralore", pb.SpectatorDelay(seconds=2), players=2)
    opening = version_for(grpc_server, table, None)
    moved = play_one(grpc_server, table, random.Random(1))
    assert version_for(grpc_server, table, table.tokens[0]) == moved.last_version
    assert version_for(grpc_server, table, None) == opening
    deadline = time.monotonic() + 10
    while version_for(grpc_server, table, None) == opening:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert version_for(grpc_server, table, None) == moved.last_version


@pytest.mark.parametrize(
    "delay",
    [
        pb.SpectatorDelay(moves=-1),
        pb.SpectatorDelay(moves=1001),
        pb.SpectatorDelay(seconds=86401),
    ],
)
def test_an_impossible_delay_is_invalid_and_stores_nothing(grpc_server, ledger, delay):
    before = ledger.store.list_games(1)
    with pytest.raises(grpc.RpcError) as refused:
        delayed(grpc_server, "terralore", delay, players=2)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert ledger.store.list_games(1) == before


def test_a_tournament_gives_its_delay_to_every_game_it_creates(grpc_server):
    stub = trpc.TournamentServiceStub(grpc_server.channel)
    created = stub.CreateTournament(
        tpb.CreateTournamentRequest(
            name="broadcast night",
            game_type="terralore",
            format="swiss",
            rounds=1,
            table_size=2,
            spectator_delay=pb.SpectatorDelay(moves=3),
        ),
        metadata=(("authorization", f"Bearer {grpc_server.admin_token}"),),
    )
    assert created.tournament.spectator_delay.moves == 3
    tid, organiser = created.tournament.tournament_id, created.organiser_token
    auth = (("authorization", f"Bearer {organiser}"),)
    for name in ("ann", "bob"):
        stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=f"{name}-{tid[:6]}"),
            metadata=auth,
        )
    round_ = stub.StartRound(tpb.StartRoundRequest(tournament_id=tid), metadata=auth)
    (table,) = round_.tables
    game = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    assert game.spectator_delay.moves == 3
    summary = stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tid))
    assert summary.spectator_delay.moves == 3


def test_the_dashboard_game_page_shows_a_delayed_game_as_far_as_spectators_see(
    grpc_server, dashboard_url
):
    """The header's event count and the replay slider stop where spectators
    do: the page never tells how far a delayed game has really gone."""
    import urllib.request

    table = delayed(grpc_server, "terralore", pb.SpectatorDelay(moves=3), players=2)
    rnd = random.Random(7)
    for _ in range(40):  # the opening is always visible: play until the delay bites
        assert play_one(grpc_server, table, rnd) is not None
        head = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
        ).game.version
        seen = grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game.version
        if seen < head:
            break
    assert seen < head  # the delay holds spectators back
    page = (
        urllib.request.urlopen(f"{dashboard_url}/games/{table.game_id}", timeout=10)
        .read()
        .decode()
    )
    assert f'data-head="{seen}"' in page
    assert f"{seen} events" in page
    assert f'data-head="{head}"' not in page
