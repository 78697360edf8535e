"""Complete Thalara games over the real gRPC server, and what each caller can see."""

from __future__ import annotations

import random
import threading
import uuid

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from typer.testing import CliRunner

from domain.contract.core import SPECTATOR, Viewer
from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import thalara_pb2
from services.proto import convert
from tests.e2e.client import create, play_one, play_to_end

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
CHARACTERS = ["myrja", "canto", "accaina", "kandhran"]


def view_of(server, table, token=None, at=None) -> object:
    request = pb.GetGameRequest(game_id=table.game_id)
    if at is not None:
        request.at_version = at
    response = server.call("GetGame", request, token)
    return convert.model_from_any(THALARA, response.view, THALARA.view_model)


@pytest.mark.parametrize(
    "example", THALARA.examples, ids=[e.name for e in THALARA.examples]
)
def test_a_complete_game_is_played_and_audited(
    grpc_server, settings, monkeypatch, example
):
    players = example.players
    table = create(grpc_server, "thalara", **example.setup)
    assert len(table.tokens) == players
    moves = play_to_end(grpc_server, table, seed=players)
    assert moves > players
    game = grpc_server.call("GetGame", pb.GetGameRequest(game_id=table.game_id)).game
    assert (
        game.status == "ended"
        and game.revealed_seed
        and len(game.outcome.ranks) == players
    )
    assert game.outcome.winners and all(
        game.outcome.ranks[w] == 1 for w in game.outcome.winners
    )

    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))  # the server's key
    result = CliRunner().invoke(
        __import__("services.cli").cli.app, ["audit", table.game_id]
    )
    assert result.exit_code == 0, result.output
    assert "OK" in result.output


def test_an_altered_row_makes_the_audit_cli_name_the_event(
    grpc_server, settings, monkeypatch, superuser
):
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    rnd = random.Random(7)
    for _ in range(8):
        play_one(grpc_server, table, rnd)
    with superuser.transaction():
        superuser.execute("SET LOCAL session_replication_role = replica")
        superuser.execute(
            "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), '\"timestamp\":\"20', '\"timestamp\":\"19'), 'UTF8')"
            " WHERE originator_id = %s AND originator_version = 3",
            (uuid.UUID(table.game_id),),
        )
    monkeypatch.setenv("LEDGER_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(settings.data_dir))  # the server's key
    result = CliRunner().invoke(
        __import__("services.cli").cli.app, ["audit", table.game_id]
    )
    assert result.exit_code == 1
    assert "event 3" in result.output and "FAIL" in result.output


def test_each_caller_sees_only_what_they_may(grpc_server, ledger):
    table = create(grpc_server, "thalara", players=3, characters=CHARACTERS[:3])
    rnd = random.Random(3)
    for _ in range(12):
        play_one(grpc_server, table, rnd)
    game = ledger.load(uuid.UUID(table.game_id))
    for seat, token in table.tokens.items():
        assert view_of(grpc_server, table, token) == THALARA.view(
            game.state, Viewer.player(seat)
        )
        mine = view_of(grpc_server, table, token).players[seat]
        assert mine.hand == game.state.players[seat].hand
        for other in set(table.tokens) - {seat}:
            theirs = view_of(grpc_server, table, token).players[other]
            assert theirs.hand == () and theirs.supply == ()
            assert theirs.hand_size == len(game.state.players[other].hand)
    spectator = view_of(grpc_server, table)
    assert spectator == THALARA.view(game.state, SPECTATOR)
    assert all(p.hand == () for p in spectator.players)
    admin = view_of(grpc_server, table, grpc_server.admin_token)
    assert [p.hand for p in admin.players] == [p.hand for p in game.state.players]
    assert admin.stack == game.state.stack and spectator.stack == ()


def test_point_in_time_views_are_redacted_for_the_caller(grpc_server, ledger):
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    rnd = random.Random(4)
    for _ in range(10):
        play_one(grpc_server, table, rnd)
    gid = uuid.UUID(table.game_id)
    for version in (2, 4, 7):
        past = ledger.load(gid, version)
        for seat, token in table.tokens.items():
            assert view_of(grpc_server, table, token, at=version) == THALARA.view(
                past.state, Viewer.player(seat)
            )
        assert view_of(grpc_server, table, at=version) == THALARA.view(
            past.state, SPECTATOR
        )


def test_streams_catch_up_then_follow_live_redacted_for_the_caller(grpc_server):
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    rnd = random.Random(5)
    for _ in range(3):
        play_one(grpc_server, table, rnd)
    head = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game.version
    received: list[pb.GameEvent] = []
    stream = grpc_server.call(
        "StreamGameEvents",
        pb.StreamGameEventsRequest(game_id=table.game_id, after_version=2),
        table.tokens[1],
        timeout=120,
    )

    def consume() -> None:
        received.extend(stream)

    reader = threading.Thread(target=consume)
    reader.start()
    play_to_end(grpc_server, table, seed=5)
    reader.join(60)
    assert not reader.is_alive(), "stream did not end after the game concluded"
    versions = [e.version for e in received]
    final = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game.version
    assert versions == list(range(3, final + 1)) and final > head
    assert received[-1].type == "ledger.GameConcluded"
    for event in received:
        if event.type == "thalara.HandSelected":
            payload = convert.event_from_any(THALARA, event.payload)
            if payload.seat != 1:
                assert payload.cards == ()
        if event.version <= head:
            assert event.hash == ""  # sent while the game was running: no chain hashes
    assert received[-1].hash  # once it has ended, the chain is public


def _status(error: grpc.RpcError) -> tuple[grpc.StatusCode, dict[str, str]]:
    status = rpc_status.from_call(error)
    info = {}
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            parsed = error_details_pb2.ErrorInfo()
            detail.Unpack(parsed)
            info = dict(parsed.metadata) | {"reason": parsed.reason}
    return error.code(), info


def test_bad_input_gets_a_precise_status_and_stores_nothing(grpc_server):
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    version = lambda: (
        grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id)
        ).game.version
    )
    before = version()
    state_view = view_of(grpc_server, table, table.tokens[0])
    own_card = state_view.players[0].supply[0]
    conflict = state_view.conflicts[0].artifact
    play = thalara_pb2.Move(
        play_card=thalara_pb2.PlayCard(card=own_card, conflict=conflict)
    )
    cases = [
        (
            pb.SubmitMoveRequest(
                game_id="not-a-uuid", command_id="a", move=convert.pack(play)
            ),
            table.tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            pb.SubmitMoveRequest(game_id=table.game_id, command_id="b"),
            table.tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id="c",
                move=convert.pack(pb.GetGameRequest()),
            ),
            table.tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="", move=convert.pack(play)
            ),
            table.tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id,
                command_id="d",
                move=convert.pack(
                    thalara_pb2.Move(
                        play_card=thalara_pb2.PlayCard(card="zzz", conflict=conflict)
                    )
                ),
            ),
            table.tokens[0],
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="e", move=convert.pack(play)
            ),
            table.tokens[0],
            grpc.StatusCode.FAILED_PRECONDITION,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="f", move=convert.pack(play), seat=1
            ),
            table.tokens[0],
            grpc.StatusCode.PERMISSION_DENIED,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="g", move=convert.pack(play)
            ),
            None,
            grpc.StatusCode.UNAUTHENTICATED,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="h", move=convert.pack(play)
            ),
            "forged-token",
            grpc.StatusCode.UNAUTHENTICATED,
        ),
        (
            pb.SubmitMoveRequest(
                game_id=str(uuid.uuid4()), command_id="i", move=convert.pack(play)
            ),
            table.tokens[0],
            grpc.StatusCode.NOT_FOUND,
        ),
    ]
    for request, token, expected in cases:
        with pytest.raises(grpc.RpcError) as caught:
            grpc_server.call("SubmitMove", request, token)
        code, info = _status(caught.value)
        assert code == expected, (request, caught.value.details())
        assert code != grpc.StatusCode.INTERNAL
        if expected == grpc.StatusCode.FAILED_PRECONDITION:
            assert info["reason"] == "ILLEGAL_MOVE" and info["rule"].startswith(
                "thalara."
            )
            assert info["rule"] in caught.value.details()
    other = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="j", move=convert.pack(play)
            ),
            other.tokens[0],
        )
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=table.game_id, seat=1),
            table.tokens[0],
        )
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.call(
            "GetGame", pb.GetGameRequest(game_id=table.game_id, at_version=999)
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as caught:
        grpc_server.call("CreateGame", pb.CreateGameRequest(game_type="chess"))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert version() == before


def test_a_retried_submit_returns_the_original_result(grpc_server):
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    listed = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, seat=0, page_size=1),
        table.tokens[0],
    )
    request = pb.SubmitMoveRequest(
        game_id=table.game_id, command_id="same-id", move=listed.moves[0]
    )
    first = grpc_server.call("SubmitMove", request, table.tokens[0])
    again = grpc_server.call("SubmitMove", request, table.tokens[0])
    assert not first.replayed and again.replayed
    assert (again.first_version, again.last_version) == (
        first.first_version,
        first.last_version,
    )
    assert [e.version for e in again.events] == [e.version for e in first.events]


def test_legal_moves_are_paged_and_every_listed_move_is_accepted(grpc_server):
    """Every move on both pages is accepted.  An opening hand selection depends on no
    chance (a seat's starting Remnants are fixed by the setup), so each listed move
    is submitted to its own fresh game with the same setup; in the listed game itself
    exactly one of them is accepted at the listed version and the others are ABORTED."""
    table = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
    first = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, seat=0, page_size=5),
        table.tokens[0],
    )
    second = grpc_server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(
            game_id=table.game_id, seat=0, page_size=5, page_token=first.next_page_token
        ),
        table.tokens[0],
    )
    assert len(first.moves) == 5 and len(second.moves) == 5 and first.next_page_token
    assert {m.SerializeToString() for m in first.moves}.isdisjoint(
        {m.SerializeToString() for m in second.moves}
    )
    assert first.version == second.version
    listed = [*first.moves, *second.moves]
    for index, move in enumerate(listed):
        fresh = create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2])
        accepted = grpc_server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=fresh.game_id, command_id=f"listed-{index}", move=move
            ),
            fresh.tokens[0],
        )
        assert not accepted.replayed
        assert accepted.first_version == first.version + 1
        assert [e.type for e in accepted.events] == ["thalara.HandSelected"]
    outcomes = []
    for index, move in enumerate(listed):
        try:
            grpc_server.call(
                "SubmitMove",
                pb.SubmitMoveRequest(
                    game_id=table.game_id,
                    command_id=f"same-version-{index}",
                    move=move,
                    expected_version=first.version,
                ),
                table.tokens[0],
            )
            outcomes.append(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            outcomes.append(error.code())
    assert outcomes == [grpc.StatusCode.OK] + [grpc.StatusCode.ABORTED] * 9


def test_listing_games_and_types_health_and_reflection(grpc_server):
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    made = [
        create(grpc_server, "thalara", players=2, characters=CHARACTERS[:2]).game_id
        for _ in range(3)
    ]
    page = grpc_server.call("ListGames", pb.ListGamesRequest(page_size=2))
    assert [g.game_id for g in page.games] == made[:0:-1] and page.next_page_token
    nxt = grpc_server.call(
        "ListGames", pb.ListGamesRequest(page_size=2, page_token=page.next_page_token)
    )
    assert nxt.games[0].game_id == made[0]  # newest first, no game skipped or repeated
    types = grpc_server.call("ListGameTypes", pb.ListGameTypesRequest())
    assert "thalara" in {t.name for t in types.game_types}
    health = health_pb2_grpc.HealthStub(grpc_server.channel).Check(
        health_pb2.HealthCheckRequest(service="ledger.v1.GameService")
    )
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(grpc_server.channel)
    answers = list(
        reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")])
        )
    )
    names = {s.name for s in answers[0].list_services_response.service}
    assert "ledger.v1.GameService" in names
