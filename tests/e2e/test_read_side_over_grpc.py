"""Replays, exports and ratings over the real gRPC server."""

from __future__ import annotations

import random
import uuid

import grpc
import pytest
from typer.testing import CliRunner

from domain.audit.export import verify_lines
from domain.contract.core import ADMIN, Viewer
from domain.games import find_game
from ledger.v1 import game_service_pb2 as gpb
from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as rpc
from services.api.client import create, play_one, play_to_end
from services.proto import convert
from tests.e2e.leak_probe import log_head

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")


@pytest.fixture(scope="module")
def replay(grpc_server):
    return rpc.ReplayServiceStub(grpc_server.channel)


@pytest.fixture(scope="module")
def ratings(grpc_server):
    return rpc.RatingServiceStub(grpc_server.channel)


def auth(token):
    return (("authorization", f"Bearer {token}"),) if token else None


def test_a_players_replay_of_a_running_game_never_shows_another_hand(
    grpc_server, replay, ledger
):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    rnd = random.Random(1)
    for _ in range(12):
        play_one(grpc_server, table, rnd)
    gid = uuid.UUID(table.game_id)
    frames, after = [], 0
    while True:
        page = replay.ListFrames(
            pb.ListFramesRequest(
                game_id=table.game_id, after_version=after, page_size=5
            ),
            metadata=auth(table.tokens[0]),
        )
        frames.extend(page.frames)
        if not page.next_after_version:
            break
        after = page.next_after_version
    head = ledger.load(gid).version
    assert [f.event.version for f in frames] == list(range(1, head + 1))
    for frame in frames:
        view = convert.model_from_any(THALARA, frame.view, THALARA.view_model)
        assert view == THALARA.view(
            ledger.load(gid, frame.event.version).state, Viewer.player(0)
        )
        assert view.players[1].hand == () and view.stack == ()
        if frame.event.type == "thalara.HandSelected":
            shown = convert.event_from_any(THALARA, frame.event.payload)
            assert shown.seat == 0 or shown.cards == ()
    streamed = list(
        replay.StreamReplay(
            pb.StreamReplayRequest(game_id=table.game_id),
            metadata=auth(table.tokens[0]),
        )
    )
    assert [f.SerializeToString() for f in streamed] == [
        f.SerializeToString() for f in frames
    ]


def test_a_finished_games_replay_is_public(grpc_server, replay, ledger):
    table = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    play_to_end(grpc_server, table, seed=2)
    frames = list(
        replay.StreamReplay(
            pb.StreamReplayRequest(game_id=table.game_id, after_version=5)
        )
    )
    gid = uuid.UUID(table.game_id)
    assert (
        frames[0].event.version == 6 and frames[-1].event.type == "ledger.GameConcluded"
    )
    view = convert.model_from_any(THALARA, frames[3].view, THALARA.view_model)
    assert view == THALARA.view(ledger.load(gid, frames[3].event.version).state, ADMIN)


def test_export_permissions_offline_verify_and_a_flipped_byte(
    grpc_server, replay, tmp_path, settings, monkeypatch
):
    table = create(grpc_server, "terralore", players=2)
    play_one(grpc_server, table, random.Random(3))
    with pytest.raises(grpc.RpcError) as denied:
        list(
            replay.ExportGame(
                pb.ExportGameRequest(game_id=table.game_id),
                metadata=auth(table.tokens[0]),
            )
        )
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    running = [
        c.line
        for c in replay.ExportGame(
            pb.ExportGameRequest(game_id=table.game_id),
            metadata=auth(grpc_server.admin_token),
        )
    ]
    assert verify_lines(running).ok
    play_to_end(grpc_server, table, seed=3)
    lines = [
        c.line for c in replay.ExportGame(pb.ExportGameRequest(game_id=table.game_id))
    ]
    report = verify_lines(lines)
    assert (
        report.ok
        and report.seed_source == "revealed"
        and report.decisions_rederived > 2
    )

    path = tmp_path / "game.ndjson"
    path.write_text("\n".join(lines) + "\n")
    runner = CliRunner()
    cli = __import__("services.cli").cli.app
    assert runner.invoke(cli, ["verify", str(path)]).exit_code == 0
    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))  # the server's key
    exported = runner.invoke(cli, ["export", table.game_id])
    assert exported.exit_code == 0 and exported.output.splitlines() == lines

    target = 6  # flip one byte inside event 6's record
    data = bytearray(path.read_bytes())
    line_start = sum(len(line) + 1 for line in lines[:target])
    index = data.index(b'"hash":"', line_start) + 10
    data[index] = ord("0") if data[index] != ord("0") else ord("1")
    path.write_bytes(bytes(data))
    result = runner.invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1 and "event 6" in result.output


def test_ratings_are_served_with_read_your_writes(grpc_server, ratings):
    """The last move's player reads the board its move changed: its read
    token makes the read wait for the views."""
    tag = uuid.uuid4().hex[:6]
    players = (f"{tag}-ann", f"{tag}-bob")
    table = create(grpc_server, "terralore", players=2, player_ids=players)
    rnd = random.Random(4)
    last = None
    while (response := play_one(grpc_server, table, rnd)) is not None:
        last = response
    assert last is not None and last.read_token
    mover = int(table.log[-1].split()[1].rstrip(":"))  # "seat N: ..."
    board = ratings.GetLeaderboard(
        pb.GetLeaderboardRequest(
            game_type="terralore", page_size=500, min_read_token=last.read_token
        ),
        metadata=auth(table.tokens[mover]),
        timeout=30,
    )
    mine = {r.player_id: r for r in board.ratings if r.player_id in players}
    assert set(mine) == set(players) and all(r.games == 1 for r in mine.values())
    assert board.next_page_token == ""  # the whole board fits in 500
    paged, token = [], None
    while token != "":  # one rating per page walks the same board, in order
        page = ratings.GetLeaderboard(
            pb.GetLeaderboardRequest(
                game_type="terralore", page_size=1, page_token=token or ""
            )
        )
        assert len(page.ratings) == 1
        paged.append((page.ratings[0].rank, page.ratings[0].player_id))
        token = page.next_page_token
    assert paged == [(r.rank, r.player_id) for r in board.ratings]
    outcome = grpc_server.call(
        "GetGame", gpb.GetGameRequest(game_id=table.game_id)
    ).game.outcome
    history = ratings.GetRatingHistory(
        pb.GetRatingHistoryRequest(game_type="terralore", player_id=players[0])
    )
    assert len(history.changes) == 1 and history.changes[0].game_id == table.game_id
    assert history.changes[0].rank == outcome.ranks[0]
    # no call returned this position: it is answered as of the log's head,
    # neither refused nor held to the deadline (either would tell the head)
    never = ratings.GetLeaderboard(
        pb.GetLeaderboardRequest(
            game_type="terralore", page_size=500, min_log_position=10**12
        ),
        timeout=30,
    )
    assert never == board


def test_statistics_are_served_per_game_type_and_player(grpc_server, ledger):
    stats = rpc.StatsServiceStub(grpc_server.channel)
    tag = uuid.uuid4().hex[:6]
    players = (f"{tag}-ann", f"{tag}-bob")
    outcomes, position = [], 0
    for seed in range(3):
        table = create(grpc_server, "terralore", players=2, player_ids=players)
        rnd = random.Random(seed)
        while play_one(grpc_server, table, rnd) is not None:
            position = log_head(ledger)
        outcomes.append(
            grpc_server.call("GetGame", gpb.GetGameRequest(game_id=table.game_id)).game
        )
    overview = stats.GetGameTypeStats(
        pb.GetGameTypeStatsRequest(game_type="terralore", min_log_position=position),
        timeout=30,
    )
    assert overview.finished >= 3 and overview.started >= overview.finished
    assert overview.moves.count >= 3 and overview.scores.count >= 6 and overview.by_seat
    assert "card_played" in overview.facet_keys
    cards = stats.GetFacetStats(
        pb.GetFacetStatsRequest(game_type="terralore", key="card_played", page_size=5)
    )
    assert 0 < len(cards.frequency) <= 5 and all(c.count > 0 for c in cards.frequency)
    history = stats.GetPlayerHistory(
        pb.GetPlayerHistoryRequest(player_id=players[0], game_type="terralore")
    )
    assert [g.game_id for g in history.games] == [o.game_id for o in outcomes]
    assert [g.rank for g in history.games] == [o.outcome.ranks[0] for o in outcomes]
    assert {g.termination_kind for g in history.games} == {gpb.TERMINATION_COMPLETED}
    fairness = stats.GetFairness(pb.GetFairnessRequest(game_type="terralore"))
    d6 = [f for f in fairness.fits if f.distribution == "d6"]
    assert d6 and d6[0].total == sum(d6[0].observed) and 0.0 <= d6[0].p_value <= 1.0
    with pytest.raises(grpc.RpcError) as unknown:
        stats.GetGameTypeStats(pb.GetGameTypeStatsRequest(game_type="chess"))
    assert unknown.value.code() == grpc.StatusCode.INVALID_ARGUMENT
