"""The client side of a seat's session (``SeatSessionService.Play``), blocking.

Why a class: a bidirectional stream in grpc's blocking API reads its
requests from an iterator; a player's client sends them whenever the person
chooses.  The iterator here is fed by :meth:`SeatSessionClient.send` from
any thread, and the answers are read with :meth:`next` (or iterated).
``ledger play`` and the tests use it.
"""

from __future__ import annotations

import queue
import uuid
from collections.abc import Iterator
from typing import Any

import grpc

from ledger.v1 import session_service_pb2 as spb
from ledger.v1 import session_service_pb2_grpc as spb_grpc

_CLOSE = object()


class SeatSessionClient:
    """One open ``Play`` stream; ``after_version`` resumes after that event."""

    def __init__(
        self,
        channel: grpc.Channel,
        game_id: str,
        token: str | None,
        after_version: int = 0,
        seat: int | None = None,
        page_size: int = 0,
        timeout: float | None = None,
        with_view: bool = False,
    ) -> None:
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        opening = spb.OpenSession(
            game_id=game_id,
            after_version=after_version,
            page_size=page_size,
            with_view=with_view,
        )
        if seat is not None:
            opening.seat = seat
        self._outbox.put(spb.PlayRequest(ref="open", open=opening))
        metadata = (("authorization", f"Bearer {token}"),) if token else None
        stub = spb_grpc.SeatSessionServiceStub(channel)
        self.call = stub.Play(self._requests(), metadata=metadata, timeout=timeout)

    def _requests(self) -> Iterator[spb.PlayRequest]:
        while True:
            item = self._outbox.get()
            if item is _CLOSE:
                return
            yield item

    def send(self, request: spb.PlayRequest) -> str:
        """Queue ``request`` (its ``ref`` filled in if empty); its ref."""
        if not request.ref:
            request.ref = uuid.uuid4().hex[:12]
        self._outbox.put(request)
        return request.ref

    def move(self, move: Any, command_id: str | None = None, **kw: Any) -> str:
        return self.send(
            spb.PlayRequest(
                move=spb.SessionMove(
                    command_id=command_id or str(uuid.uuid4()), move=move, **kw
                )
            )
        )

    def query(self, **kw: Any) -> str:
        return self.send(spb.PlayRequest(moves=spb.MovesQuery(**kw)))

    def next(self) -> spb.PlayResponse:
        """The next message (blocking; the call's deadline bounds it)."""
        return next(self.call)

    def __iter__(self) -> Iterator[spb.PlayResponse]:
        return iter(self.call)

    def close(self) -> None:
        """Half-close, then cancel: the server ends the session."""
        self._outbox.put(_CLOSE)
        self.call.cancel()
