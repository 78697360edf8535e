"""Items 3-5: discoverable setups, legal moves that scale, errors any language can read."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import thalara_pb2
from services.api import legal_pages
from services.proto import convert
from tests.e2e.client import create

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")
HANDS = 77520  # 20 choose 7


def _details(err: grpc.RpcError):
    status = rpc_status.from_call(err)
    assert status is not None, f"{err.code()} without google.rpc details"
    info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    found = {"info": None, "bad": None}
    for detail in status.details:
        if detail.Unpack(info):
            found["info"] = info
        elif detail.Unpack(bad):
            found["bad"] = bad
    return found["info"], found["bad"]


def _refused(server, method, request, token=None, metadata=None):
    with pytest.raises(grpc.RpcError) as caught:
        if metadata is not None:
            getattr(server.stub, method)(request, metadata=metadata, timeout=30)
        else:
            server.call(method, request, token)
    return caught.value


def _select(server, table, seat=0, **fields):
    return server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=table.game_id, **fields),
        table.tokens[seat],
    )


def test_a_page_anywhere_in_the_hand_selection_and_the_total_size(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    first = _select(grpc_server, table, page_size=100)
    assert first.total_size == HANDS and len(first.moves) == 100
    token = legal_pages.page_token(table.game_id, first.version, first.seat, HANDS - 20)
    last = _select(grpc_server, table, page_size=100, page_token=token)
    assert last.total_size == HANDS and len(last.moves) == 20
    assert last.next_page_token == ""
    hands = [convert.command_from_any(THALARA, m).cards for m in last.moves]
    assert hands == sorted(hands) and len(set(hands)) == 20
    assert hands[-1] > convert.command_from_any(THALARA, first.moves[-1]).cards


def test_a_sample_is_distinct_random_legal_moves(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    got = _select(grpc_server, table, sample=5)
    assert got.total_size == HANDS and got.next_page_token == ""
    hands = {convert.command_from_any(THALARA, m).cards for m in got.moves}
    assert len(hands) == 5
    again = {
        convert.command_from_any(THALARA, m).cards
        for m in _select(grpc_server, table, sample=5).moves
    }
    assert again != hands  # 5 of 77,520 twice alike: about 1 in 10^20
    played = grpc_server.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id, command_id="sampled", move=got.moves[0]
        ),
        table.tokens[0],
    )
    assert played.last_version > played.first_version - 1


def test_a_sample_larger_than_the_list_is_the_whole_list(grpc_server):
    table = create(grpc_server, "terralore", players=2)
    seat = next(iter(table.tokens))
    whole = _select(grpc_server, table, seat, page_size=1000)
    got = _select(grpc_server, table, seat, sample=1000)
    assert len(got.moves) == got.total_size == len(whole.moves)
    assert {m.value for m in got.moves} == {m.value for m in whole.moves}


def test_a_bogus_bearer_token_says_why_in_error_info(grpc_server):
    request = pb.ListGamesRequest()
    err = _refused(
        grpc_server, "ListGames", request, metadata=(("authorization", "Bearer nope"),)
    )
    assert err.code() is grpc.StatusCode.UNAUTHENTICATED
    info, _ = _details(err)
    assert (info.domain, info.reason) == ("ledger.v1", "UNKNOWN_TOKEN")
    err = _refused(
        grpc_server, "ListGames", request, metadata=(("authorization", "Basic x"),)
    )
    assert _details(err)[0].reason == "MALFORMED_AUTHORIZATION"


def test_acting_without_a_token_is_token_required(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    err = _refused(
        grpc_server, "ListLegalMoves", pb.ListLegalMovesRequest(game_id=table.game_id)
    )
    assert err.code() is grpc.StatusCode.UNAUTHENTICATED
    assert _details(err)[0].reason == "TOKEN_REQUIRED"


def test_malformed_input_names_the_fields_in_bad_request(grpc_server):
    setup = convert.pack(thalara_pb2.ThalaraSetup(mode="chaos"))
    err = _refused(
        grpc_server,
        "CreateGame",
        pb.CreateGameRequest(game_type="thalara", setup=setup),
    )
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    info, bad = _details(err)
    assert info.reason == "MALFORMED"
    assert [v.field for v in bad.field_violations] == ["mode"]
    err = _refused(grpc_server, "CreateGame", pb.CreateGameRequest(game_type="chess"))
    info, bad = _details(err)
    assert info.reason == "UNKNOWN_GAME_TYPE"
    assert [v.field for v in bad.field_violations] == ["game_type"]
    err = _refused(grpc_server, "ListLegalMoves", pb.ListLegalMovesRequest(game_id="x"))
    assert [v.field for v in _details(err)[1].field_violations] == ["game_id"]


def test_every_summary_carries_its_closed_sets_as_enums(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    game = table.created.game
    assert (game.status, game.status_kind) == ("active", pb.GAME_STATUS_ACTIVE)
    seen = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    ).game
    assert (seen.role, seen.role_kind) == ("player", pb.ROLE_PLAYER)
    spectator = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id)
    ).game
    assert spectator.role_kind == pb.ROLE_SPECTATOR


def test_list_game_types_offers_every_setup_field_with_its_allowed_values(
    grpc_server,
):
    types = {
        t.name: t
        for t in grpc_server.call("ListGameTypes", pb.ListGameTypesRequest()).game_types
    }
    pack = types["thalara"].content_packs[0]
    fields = {f.name: f for f in pack.setup_fields}
    assert list(fields["mode"].allowed_values) == ["standard", "casual_chaos"]
    assert fields["characters"].per_seat
    assert "myrja" in fields["characters"].allowed_values
    assert list(fields["content"].allowed_values) == [pack.name]
    assert fields["content"].default_json == '"sample"'
    clans = {f.name: f for f in types["vaalbara"].content_packs[0].setup_fields}
    assert len(clans["clans"].allowed_values) == 5
    thorgal = {f.name: f for f in types["thorgal"].content_packs[0].setup_fields}
    assert thorgal["players"].default_json == "2"  # every game defaults to 2
    for game_type in types.values():
        for pack in game_type.content_packs:
            counts = set()
            for example in pack.example_setups:
                created = grpc_server.call(
                    "CreateGame",
                    pb.CreateGameRequest(game_type=game_type.name, setup=example),
                )
                counts.add(created.game.players)
            assert counts == set(range(pack.min_players, pack.max_players + 1))


def test_permission_refusals_name_their_reason(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    other = create(grpc_server, "thalara", players=2)
    request = pb.ListLegalMovesRequest(game_id=other.game_id)
    err = _refused(grpc_server, "ListLegalMoves", request, table.tokens[0])
    assert err.code() is grpc.StatusCode.PERMISSION_DENIED
    assert _details(err)[0].reason == "TOKEN_FOR_ANOTHER_GAME"
    request = pb.ListLegalMovesRequest(game_id=table.game_id, seat=1)
    err = _refused(grpc_server, "ListLegalMoves", request, table.tokens[0])
    assert _details(err)[0].reason == "PERMISSION_DENIED"
    move = _select(grpc_server, table, sample=1).moves[0]
    submit = pb.SubmitMoveRequest(game_id=table.game_id, command_id="a", move=move)
    err = _refused(grpc_server, "SubmitMove", submit, grpc_server.admin_token)
    assert _details(err)[0].reason == "ADMIN_CANNOT_MOVE"


def test_a_page_token_pages_only_its_own_game_seat_and_version(grpc_server):
    table = create(grpc_server, "thalara", players=2)
    other = create(grpc_server, "thalara", players=2)
    first = _select(grpc_server, table, page_size=10)
    err = _refused(
        grpc_server,
        "ListLegalMoves",
        pb.ListLegalMovesRequest(
            game_id=other.game_id, page_token=first.next_page_token
        ),
        other.tokens[0],
    )
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert [v.field for v in _details(err)[1].field_violations] == ["page_token"]
    grpc_server.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=table.game_id, command_id="stale", move=first.moves[0]
        ),
        table.tokens[0],
    )
    err = _refused(
        grpc_server,
        "ListLegalMoves",
        pb.ListLegalMovesRequest(
            game_id=table.game_id, page_token=first.next_page_token
        ),
        table.tokens[0],
    )
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "stale" in err.details()
