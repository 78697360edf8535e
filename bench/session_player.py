"""A rule-blind client that plays over seat sessions: one stream per player.

Why a player of its own: the unary client (:class:`bench.loadgen.Player`)
spends two round trips per move (``ListLegalMoves``, then ``SubmitMove``);
over ``SeatSessionService.Play`` the server pushes each seat's first page of
legal moves when the seat is to act, so a move is one message and its
``accepted`` answer, as the peer's client sends one message per move.

Each game opens one session per seat token (a player's seats share one),
reads every session in a task of its own, and plays each page the server
sends: a random listed move, answered ``accepted`` (recorded as the move's
latency, in ``Recorder.submit`` like ``SubmitMove``'s) or ``refused`` (a page
another seat's move made stale: the next page follows).  The game is over
when every session has ended, which the server does after the conclusion.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import grpc

from bench import loadgen
from ledger.v1 import session_service_pb2 as spb
from ledger.v1 import session_service_pb2_grpc as spb_grpc

PAGE_WAIT = 30.0
"""Seconds without a page before a game is given up (a server that stalls)."""


@dataclass
class _Session:
    call: Any
    pending: dict[str, asyncio.Future[int | None]] = field(default_factory=dict)
    """ref -> the version the accepted move left the game at (None: refused)."""
    ended: bool = False


class SessionPlayer(loadgen.Player):
    """:class:`bench.loadgen.Player`, its moves made over seat sessions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sessions = spb_grpc.SeatSessionServiceStub(self.channel)

    async def play(self, table: loadgen.Table, deadline: float) -> None:
        """Open a session per player of ``table`` and play until the game
        ends (or ``deadline``)."""
        pages: asyncio.Queue[tuple[_Session | None, Any]] = asyncio.Queue()
        sessions: list[_Session] = []
        readers: list[asyncio.Task[None]] = []
        for token in dict.fromkeys(table.tokens.values()):  # one per player
            call = self.sessions.Play(metadata=loadgen.auth(token))
            session = _Session(call)
            sessions.append(session)
            open_ = spb.OpenSession(game_id=table.game_id, page_size=loadgen.PAGE_SIZE)
            await call.write(spb.PlayRequest(open=open_))
            readers.append(asyncio.create_task(self._read(session, pages)))
        newest = 0  # the version the last accepted move left the game at
        try:
            while time.perf_counter() < deadline and table.moves < (
                loadgen.MAX_MOVES_PER_GAME
            ):
                if all(s.ended for s in sessions):
                    break
                try:
                    got = await asyncio.wait_for(pages.get(), PAGE_WAIT)
                except TimeoutError:
                    self.rec.errors.append((time.perf_counter(), "Play", "TIMEOUT"))
                    break
                sent_on, page = got
                if sent_on is None:  # a session ended: check them all again
                    continue
                if sent_on.ended or page.version < newest or not page.moves:
                    continue  # made stale by a move since
                accepted = await self._move(sent_on, page)
                if accepted is not None:
                    newest = max(newest, accepted)
                    table.moves += 1
        finally:
            for session in sessions:
                session.call.cancel()
            for reader in readers:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, grpc.RpcError):
                    await reader
        if all(s.ended for s in sessions):
            self.rec.games_finished += 1

    async def _move(self, session: _Session, page: Any) -> int | None:
        """A random move of ``page`` on ``session``; the version it left the
        game at, or None when it was refused."""
        ref = uuid.uuid4().hex
        answer: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        session.pending[ref] = answer
        move = spb.SessionMove(
            command_id=str(uuid.uuid4()),
            move=self.rnd.choice(page.moves),
            seat=page.seat,
        )
        t0 = time.perf_counter()
        try:
            await session.call.write(spb.PlayRequest(ref=ref, move=move))
        except (asyncio.InvalidStateError, grpc.aio.AioRpcError):
            session.pending.pop(ref, None)
            return None  # the stream ended meanwhile (the game did)
        try:
            accepted = await asyncio.wait_for(answer, loadgen.RPC_TIMEOUT)
        except TimeoutError:
            self.rec.errors.append((time.perf_counter(), "Play", "TIMEOUT"))
            return None
        finally:
            session.pending.pop(ref, None)
        if accepted is None:
            return None
        t1 = time.perf_counter()
        self.rec.submit.append((t1, t1 - t0))
        return int(accepted)

    async def _read(
        self, session: _Session, pages: asyncio.Queue[tuple[_Session | None, Any]]
    ) -> None:
        """Route ``session``'s messages: pages to the queue, answers to their
        waiting moves; at the stream's end, wake the player."""
        try:
            while True:
                message = await session.call.read()
                if message is grpc.aio.EOF:
                    break
                kind = message.WhichOneof("kind")
                if kind == "moves" and not message.ref:
                    await pages.put((session, message.moves))
                elif kind in ("accepted", "refused"):
                    waiting = session.pending.get(message.ref)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(
                            message.accepted.last_version
                            if kind == "accepted"
                            else None
                        )
        except grpc.aio.AioRpcError as exc:
            self._error("Play", exc)
        finally:
            session.ended = True
            for waiting in session.pending.values():
                if not waiting.done():
                    waiting.set_result(None)
            await pages.put((None, None))
