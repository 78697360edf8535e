"""One end-of-game policy across every RPC: once a game ends, everything is public.

``ListFrames``, ``StreamReplay`` and ``ExportGame`` showed
Thalara's ``HandSelected.cards`` to anyone after the end while ``GetGame``
and ``StreamGameEvents`` still hid them.  Now every role gets exactly the
admin's answer from every RPC once the game has ended, and before the end
nobody but the owner (and the admin) sees a hand, through any of them.
"""

from __future__ import annotations

import json

import grpc
import pytest
from google.protobuf import any_pb2

from domain.games import find_game
from domain.games.thalara.events import HandSelected
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from services.api.client import create, play_to_end
from services.proto import convert
from tests.e2e.client import thalara_in_play
from tests.e2e.leak_probe import Reader, frames
from tests.support.typed import of

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")


def meta(token):
    return (("authorization", f"Bearer {token}"),) if token else None


def answers(server, reader, game_id, token) -> dict[str, list[bytes]]:
    """Every read RPC's answer about ``game_id`` for ``token``, minus who-is-asking fields."""
    got = server.call("GetGame", pb.GetGameRequest(game_id=game_id), token)
    summary = got.game
    summary.ClearField("role")
    summary.ClearField("role_kind")
    summary.ClearField("your_seats")
    events = server.call(
        "StreamGameEvents",
        pb.StreamGameEventsRequest(game_id=game_id, stop_at_head=True),
        token,
    )
    out = {
        "GetGame": [summary.SerializeToString(), got.view.SerializeToString()],
        "StreamGameEvents": [e.SerializeToString() for e in events],
        "ListFrames": [f.SerializeToString() for f in frames(reader, game_id, token)],
        "StreamReplay": [
            f.SerializeToString()
            for f in reader.replay.StreamReplay(
                rpb.StreamReplayRequest(game_id=game_id), metadata=meta(token)
            )
        ],
    }
    try:
        out["ExportGame"] = [
            c.line.encode()
            for c in reader.replay.ExportGame(
                rpb.ExportGameRequest(game_id=game_id), metadata=meta(token)
            )
        ]
    except grpc.RpcError as error:
        out["ExportGame"] = [error.code().name.encode()]
    return out


def hands_shown(answer: dict[str, list[bytes]]) -> dict[str, set[int]]:
    """Per RPC, the seats whose selected hand is visible in it."""
    shown: dict[str, set[int]] = {}
    for event in map(pb.GameEvent.FromString, answer["StreamGameEvents"]):
        if event.type == "thalara.HandSelected":
            payload = of(HandSelected, convert.event_from_any(THALARA, event.payload))
            if payload.cards:
                shown.setdefault("StreamGameEvents", set()).add(payload.seat)
    for name in ("ListFrames", "StreamReplay"):
        for frame in map(rpb.Frame.FromString, answer[name]):
            if frame.event.type == "thalara.HandSelected":
                payload = of(
                    HandSelected, convert.event_from_any(THALARA, frame.event.payload)
                )
                if payload.cards:
                    shown.setdefault(name, set()).add(payload.seat)
    for line in answer["ExportGame"]:
        if line.startswith(b"{"):
            record = json.loads(line)
            if record.get("type") == "thalara.HandSelected":
                body = record["record"]["body"]["payload"]
                if body["cards"]:
                    shown.setdefault("ExportGame", set()).add(body["seat"])
    view = convert.model_from_any(
        THALARA, any_pb2.Any.FromString(answer["GetGame"][1]), THALARA.view_model
    )
    for seat, player in enumerate(view.players):
        if player.hand:
            shown.setdefault("GetGame", set()).add(seat)
    return shown


def test_every_rpc_shows_every_role_the_same_once_the_game_ends(grpc_server):
    reader = Reader(grpc_server.channel)
    table = thalara_in_play(grpc_server)
    other = create(grpc_server, "thalara", players=2, characters=["myrja", "canto"])
    roles = {
        "spectator": None,
        "seat 0": table.tokens[0],
        "seat 1": table.tokens[1],
        "other game's token": other.tokens[0],
        "admin": grpc_server.admin_token,
    }
    running = {
        role: answers(grpc_server, reader, table.game_id, t)
        for role, t in roles.items()
    }
    assert hands_shown(running["admin"]) == {
        rpc: {0, 1}
        for rpc in (
            "StreamGameEvents",
            "ListFrames",
            "StreamReplay",
            "ExportGame",
            "GetGame",
        )
    }
    assert hands_shown(running["seat 0"]) == {
        rpc: {0}
        for rpc in ("StreamGameEvents", "ListFrames", "StreamReplay", "GetGame")
    }
    assert hands_shown(running["spectator"]) == {}
    assert hands_shown(running["other game's token"]) == {}
    assert running["spectator"]["ExportGame"] == [b"PERMISSION_DENIED"]

    play_to_end(grpc_server, table, seed=5)
    ended = {
        role: answers(grpc_server, reader, table.game_id, t)
        for role, t in roles.items()
    }
    for role, answer in ended.items():
        assert answer == ended["admin"], role
    assert set(hands_shown(ended["spectator"])) >= {
        "StreamGameEvents",
        "ListFrames",
        "StreamReplay",
        "ExportGame",
    }
    assert all(seats == {0, 1} for seats in hands_shown(ended["spectator"]).values())
