"""Driving seat sessions (``SeatSessionService.Play``) from tests.

:func:`play_over_sessions` plays one game to its end with one session per
seat token, choosing random moves from the pages the sessions offer, and
keeps everything each session received, so a test can compare it with what
the unary calls show the same token.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from ledger.v1 import session_service_pb2 as spb
from services.api.session_client import SeatSessionClient


@dataclass
class Received:
    """What one session received, in order."""

    messages: list[spb.PlayResponse] = field(default_factory=list)
    status: grpc.StatusCode | None = None
    streamed: list[pb.GameEvent] = field(default_factory=list)
    """What ``StreamGameEvents`` streamed the same token meanwhile, live."""

    def events(self) -> list[pb.GameEvent]:
        return [m.event for m in self.messages if m.WhichOneof("kind") == "event"]

    def kinds(self) -> list[str]:
        return [str(m.WhichOneof("kind")) for m in self.messages]


def _pump(client: SeatSessionClient, key: Any, inbox: queue.Queue[Any]) -> None:
    try:
        for message in client:
            inbox.put((key, message))
        inbox.put((key, grpc.StatusCode.OK))
    except grpc.RpcError as exc:
        inbox.put((key, exc.code()))


def stream_events(
    channel: grpc.Channel, game_id: str, token: str, timeout: float = 300
) -> Iterator[pb.GameEvent]:
    """``StreamGameEvents`` of ``game_id`` as ``token`` sees it, from the start."""
    stub = pb_grpc.GameServiceStub(channel)
    return stub.StreamGameEvents(
        pb.StreamGameEventsRequest(game_id=game_id),
        metadata=(("authorization", f"Bearer {token}"),),
        timeout=timeout,
    )


def _watch(channel: grpc.Channel, game_id: str, token: str, into: Received) -> None:
    into.streamed.extend(stream_events(channel, game_id, token))


def open_sessions(
    channel: grpc.Channel, game_id: str, tokens: dict[int, str], **kw: Any
) -> tuple[dict[str, SeatSessionClient], queue.Queue[Any]]:
    """One session per distinct token, each read by a thread into one queue."""
    inbox: queue.Queue[Any] = queue.Queue()
    clients: dict[str, SeatSessionClient] = {}
    for token in dict.fromkeys(tokens.values()):
        clients[token] = SeatSessionClient(channel, game_id, token, **kw)
        threading.Thread(
            target=_pump, args=(clients[token], token, inbox), daemon=True
        ).start()
    return clients, inbox


def play_over_sessions(
    channel: grpc.Channel,
    game_id: str,
    tokens: dict[int, str],
    seed: int = 0,
    watch: bool = True,
) -> dict[str, Received]:
    """Play to the end: at each offered page, a random move of it (and, with
    ``watch``, follow each token's ``StreamGameEvents`` meanwhile)."""
    rnd = random.Random(seed)
    got = {token: Received() for token in dict.fromkeys(tokens.values())}
    watchers = [
        threading.Thread(target=_watch, args=(channel, game_id, t, r), daemon=True)
        for t, r in got.items()
        if watch
    ]
    for watcher in watchers:
        watcher.start()
    clients, inbox = open_sessions(channel, game_id, tokens)
    open_count = len(clients)
    try:
        while open_count:
            token, item = inbox.get(timeout=120)
            if isinstance(item, grpc.StatusCode):
                got[token].status = item
                open_count -= 1
                continue
            got[token].messages.append(item)
            if item.WhichOneof("kind") == "moves" and item.moves.moves:
                clients[token].move(
                    rnd.choice(list(item.moves.moves)), seat=item.moves.seat
                )
    finally:
        for client in clients.values():
            client.close()
    for watcher in watchers:
        watcher.join(60)
    return got
