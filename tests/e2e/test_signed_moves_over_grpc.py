"""Receipts and player-signed moves over the wire.

A game created with one Ed25519 key per seat accepts only moves signed by
the acting seat; every refusal has its status and stores nothing.  Receipts
verify offline with the key ``GetLedgerKey`` publishes.
"""

from __future__ import annotations

import base64
import json
import uuid

import grpc
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from google.protobuf import any_pb2

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import thalara_pb2

pytestmark = pytest.mark.e2e


def canonical(doc: dict) -> bytes:
    return json.dumps(
        doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def signed_game(server):
    keys = [Ed25519PrivateKey.generate() for _ in range(2)]
    setup = any_pb2.Any()
    setup.Pack(
        thalara_pb2.ThalaraSetup(
            players=2, mode="standard", characters=["myrja", "canto"], content="sample"
        )
    )
    created = server.call(
        "CreateGame",
        pb.CreateGameRequest(
            game_type="thalara", setup=setup, seat_public_keys=[raw(k) for k in keys]
        ),
    )
    return created, keys


def request_for(server, created, keys, signer=None, **overrides):
    game = server.call("GetGame", pb.GetGameRequest(game_id=created.game.game_id)).game
    seat = game.to_act[0]
    token = next(t.token for t in created.tokens if seat in t.seats)
    move = server.call(
        "ListLegalMoves",
        pb.ListLegalMovesRequest(game_id=game.game_id, seat=seat, page_size=1),
        token,
    ).moves[0]
    command_id = str(uuid.uuid4())
    message = canonical(
        {
            "context": "ledger-move/v1",
            "game_id": game.game_id,
            "command_id": command_id,
            "expected_version": game.version,
            "move_type": move.type_url,
            "move": base64.b64encode(move.value).decode(),
        }
    )
    key = keys[seat] if signer is None else signer
    fields = {
        "game_id": game.game_id,
        "command_id": command_id,
        "move": move,
        "seat": seat,
        "expected_version": game.version,
        "signature": key.sign(message),
        **overrides,
    }
    return pb.SubmitMoveRequest(**fields), token, game.version


def test_signed_moves_are_accepted_and_their_receipts_verify_offline(grpc_server):
    created, keys = signed_game(grpc_server)
    key = grpc_server.call("GetLedgerKey", pb.GetLedgerKeyRequest())
    public = Ed25519PublicKey.from_public_bytes(key.public_key)
    receipts = [created.receipt]
    for _ in range(3):
        request, token, version = request_for(grpc_server, created, keys)
        done = grpc_server.call("SubmitMove", request, token)
        assert done.first_version == version + 1
        receipts.append(done.receipt)
    for r in receipts:
        assert r.game_id == created.game.game_id and r.key_id == key.key_id
        public.verify(  # raises InvalidSignature if not the server's
            r.signature,
            canonical(
                {
                    "context": "ledger-receipt/v1",
                    "game_id": r.game_id,
                    "version": r.version,
                    "head_hash": r.head_hash,
                    "timestamp": r.timestamp,
                }
            ),
        )
    assert [r.version for r in receipts] == sorted({r.version for r in receipts})
    events = list(
        grpc_server.stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=created.game.game_id, stop_at_head=True)
        )
    )
    created_event = pb.GameCreated()
    events[0].payload.Unpack(created_event)
    assert list(created_event.seat_public_keys) == [raw(k) for k in keys]
    assert created_event.ruleset_version == 1 and len(created_event.content_hash) == 64


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("missing", grpc.StatusCode.UNAUTHENTICATED),
        ("other seat's key", grpc.StatusCode.PERMISSION_DENIED),
        ("stranger's key", grpc.StatusCode.PERMISSION_DENIED),
        ("altered move", grpc.StatusCode.PERMISSION_DENIED),
        ("another command id", grpc.StatusCode.PERMISSION_DENIED),
        ("truncated signature", grpc.StatusCode.INVALID_ARGUMENT),
        ("no expected version", grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_a_badly_signed_move_is_refused_and_stores_nothing(grpc_server, case, code):
    created, keys = signed_game(grpc_server)
    before = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=created.game.game_id)
    ).game.version
    request, token, _ = request_for(grpc_server, created, keys)
    seat = request.seat
    if case == "missing":
        request.ClearField("signature")
    elif case == "other seat's key":
        request, token, _ = request_for(grpc_server, created, keys, keys[1 - seat])
    elif case == "stranger's key":
        request, token, _ = request_for(
            grpc_server, created, keys, Ed25519PrivateKey.generate()
        )
    elif case == "altered move":
        # the same move plus an unknown field 500: still parses, other bytes
        request.move.value = request.move.value + b"\xa0\x1f\x01"
    elif case == "another command id":
        request.command_id = str(uuid.uuid4())
    elif case == "truncated signature":
        request.signature = request.signature[:10]
    elif case == "no expected version":
        request.ClearField("expected_version")
    with pytest.raises(grpc.RpcError) as refused:
        grpc_server.call("SubmitMove", request, token)
    assert refused.value.code() == code
    after = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=created.game.game_id)
    ).game.version
    assert after == before


def test_a_signature_on_a_game_without_seat_keys_is_refused(grpc_server):
    setup = any_pb2.Any()
    setup.Pack(
        thalara_pb2.ThalaraSetup(
            players=2, mode="standard", characters=["myrja", "canto"], content="sample"
        )
    )
    created = grpc_server.call(
        "CreateGame", pb.CreateGameRequest(game_type="thalara", setup=setup)
    )
    request, token, _ = request_for(
        grpc_server, created, [Ed25519PrivateKey.generate()] * 2
    )
    with pytest.raises(grpc.RpcError) as refused:
        grpc_server.call("SubmitMove", request, token)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("keys", [[b"x" * 32], [b"short", b"y" * 32]])
def test_malformed_seat_keys_are_invalid_argument(grpc_server, keys):
    setup = any_pb2.Any()
    setup.Pack(
        thalara_pb2.ThalaraSetup(
            players=2, mode="standard", characters=["myrja", "canto"], content="sample"
        )
    )
    with pytest.raises(grpc.RpcError) as refused:
        grpc_server.call(
            "CreateGame",
            pb.CreateGameRequest(
                game_type="thalara", setup=setup, seat_public_keys=keys
            ),
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_list_game_types_names_each_rules_version(grpc_server):
    types = grpc_server.call("ListGameTypes", pb.ListGameTypesRequest()).game_types
    assert {t.name: t.ruleset_version for t in types} == {
        "thalara": 1,
        "terralore": 1,
        "thorgal": 1,
        "vaalbara": 2,
    }


def test_the_concluding_move_and_the_streamed_conclusion_carry_the_same_receipt(
    grpc_server,
):
    import random

    from services.api.client import create, play_one

    table = create(grpc_server, "terralore", players=2)
    rnd = random.Random(4)
    last = None
    while (response := play_one(grpc_server, table, rnd)) is not None:
        last = response
    assert last.events[-1].type == "ledger.GameConcluded"
    assert last.receipt.version == last.last_version == last.events[-1].version
    assert last.events[-1].receipt == last.receipt
    streamed = list(
        grpc_server.stub.StreamGameEvents(
            pb.StreamGameEventsRequest(game_id=table.game_id, stop_at_head=True)
        )
    )
    assert streamed[-1].type == "ledger.GameConcluded"
    assert streamed[-1].receipt == last.receipt
    assert not streamed[-2].HasField("receipt")
