"""``SeatSessionService.Play``: one seat's game on one bidirectional stream.

Why: a rule-blind client otherwise needs ``ListLegalMoves`` and
``SubmitMove`` per move and ``StreamGameEvents`` beside them, and a client
juggling three calls misses what happens between them (the clock running, a
game the timekeeper ended while the player sat at the prompt, the last events
after its own move).  A session sends everything on one stream, in order.

Nothing here decides anything: the events are the event stream's
(:class:`~services.api.event_stream.GameEventStream`, the same redaction and
ordering as ``StreamGameEvents``), the legal moves the read path's
(:meth:`~services.ledger.reading.game_reads.GameReads.legal_moves`, from the
game cache, once per version), and moves, draws and resignations the ledger's
own use cases (``GameLedger.submit_move`` and friends), with the seat rule
of the unary calls (:func:`services.ledger.callers.acting_seat`).

What ends the stream and what is answered in it: a session that cannot be
used (no seat token, a token of another game, an unknown game, a first
message that is not ``open``) ends with the unary calls' status; a client
message refused later (an illegal move, a stale page token, a draw offer out
of turn, the database down) is answered by ``refused``, the status the unary
call would have ended with, and the session goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing
from typing import Any

import grpc

from domain.contract.core import Command, InvalidCommandError, Seat
from domain.ledger.aggregate import Game
from domain.ledger.signatures import SignedMove
from ledger.v1 import session_service_pb2 as spb
from ledger.v1 import session_service_pb2_grpc as spb_grpc
from services.api import legal_filter, legal_pages, page_tokens, presenters
from services.api.auth import current_principal
from services.api.errors import status_for
from services.api.event_stream import GameEventStream
from services.api.rpc import check_after_version, guarded, parse_game_id
from services.ledger.application import GameLedger
from services.ledger.callers import (
    PermissionDeniedError,
    Principal,
    UnauthenticatedError,
    acting_seat,
)
from services.ledger.reading.disclosure import disclose
from services.ledger.reading.game_reads import GameReads
from services.live.listen_hub import EventHub
from services.proto import convert, game_messages

KIND = "SeatSessionService.Play"
"""The page tokens' kind: a ``ListLegalMoves`` token pages nothing here."""
DEFAULT_PAGE = 100
_END = object()


OUTAGE_RETRY_SECONDS = 0.5
"""How often a session whose events could not be read (the database away)
tries to follow them again."""


class SessionServicer(spb_grpc.SeatSessionServiceServicer):
    def __init__(
        self,
        ledger: GameLedger,
        hub: EventHub,
        reads: GameReads,
        stream: GameEventStream | None = None,
    ) -> None:
        self._ledger = ledger
        self._reads = reads
        self._stream = stream or GameEventStream(ledger, hub, reads)

    @guarded
    async def Play(self, requests: AsyncIterator[spb.PlayRequest], context: Any) -> Any:
        first = await _first(requests)
        session = await self._open(current_principal.get(), first.open)
        yield spb.PlayResponse(ref=first.ref, opened=session.opened())
        out: asyncio.Queue[Any] = asyncio.Queue()
        tasks = [
            asyncio.create_task(session.follow(out)),
            asyncio.create_task(session.answer(requests, out)),
        ]
        try:
            while True:
                item = await out.get()
                if item is _END:  # the game is over: answer what is in hand
                    await session.idle.wait()
                    while not out.empty():
                        last = out.get_nowait()
                        if isinstance(last, spb.PlayResponse):
                            yield last
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _open(self, principal: Principal, opening: spb.OpenSession) -> Session:
        """The session ``opening`` asks for, or the reason there is none.

        :raises PermissionDeniedError, UnauthenticatedError: not a seat of
            this game (the admin and spectators watch with StreamGameEvents).
        :raises GameNotFoundError, InvalidCommandError:
        """
        game_id = parse_game_id(opening.game_id)
        after = check_after_version(opening.after_version)
        size = legal_pages.check_size("open.page_size", opening.page_size or 100)
        if principal.admin:
            raise PermissionDeniedError(
                "the admin token observes; a session plays a seat (use"
                " StreamGameEvents to watch)",
                "ADMIN_CANNOT_MOVE",
            )
        if principal.grant is None:
            raise UnauthenticatedError(
                "a session needs a seat token (authorization: Bearer <token>);"
                " spectators watch with StreamGameEvents"
            )
        game = await self._ledger.game(game_id)
        if opening.HasField("seat"):
            seats: tuple[Seat, ...] = (acting_seat(principal, game, opening.seat),)
        else:
            seats = principal.seats_in(game_id)
            if not seats:
                raise PermissionDeniedError(
                    "this token is for another game", "TOKEN_FOR_ANOTHER_GAME"
                )
        return Session(self, principal, game, seats, after, size, opening.with_view)


async def _first(requests: AsyncIterator[spb.PlayRequest]) -> spb.PlayRequest:
    """:raises InvalidCommandError: unless the first message is ``open``."""
    try:
        first = await anext(requests)
    except StopAsyncIteration:
        first = spb.PlayRequest()
    if first.WhichOneof("kind") != "open":
        raise InvalidCommandError(
            "a session's first message must be open",
            violations=(("open", "required first"),),
        )
    return first


class Session:
    """One open ``Play`` stream: its caller, seats and legal-move lists."""

    def __init__(
        self,
        servicer: SessionServicer,
        principal: Principal,
        game: Game,
        seats: tuple[Seat, ...],
        after: int,
        page_size: int,
        with_view: bool,
    ) -> None:
        self._ledger = servicer._ledger
        self._reads = servicer._reads
        self._stream = servicer._stream
        self.principal, self.game_id, self.seats = principal, game.id, seats
        self._game = game
        self._after = after
        self._page_size = page_size
        self._with_view = with_view
        self._offered: set[tuple[int, Seat]] = set()
        """(version, seat) whose first page was sent."""
        self._state_at = -1
        self._texts: dict[tuple[int, Seat], list[str]] = {}
        """Search texts of the list of (version, seat): the newest only."""
        self._sight: tuple[int, Any] | None = None
        self.idle = asyncio.Event()
        """Set while no client message is being answered: a game that ends
        meanwhile (a resignation, say) still answers the message first."""
        self.idle.set()

    def opened(self) -> spb.SessionOpened:
        game = self._game
        summary = presenters.summary(
            game, self.principal, ended=game.is_over, now=self._ledger.clock()
        )
        return spb.SessionOpened(game=summary, seats=self.seats)

    # ------------------------------------------------------------ game to client

    async def follow(self, out: asyncio.Queue[Any]) -> None:
        """Every event after the resume point, then the state and the turn's
        first pages at each head, until the game's conclusion.

        A database outage does not end the session: the client's messages
        meanwhile are refused UNAVAILABLE in the stream, and the events are
        followed again from the last one sent once the database answers (a
        session that ended there would race the refusal of the move in hand).
        """
        while True:
            try:
                batches = self._stream.batches(
                    self.principal, self.game_id, self._after, False
                )
                async with aclosing(batches):
                    async for head, messages in batches:
                        for message in messages:
                            out.put_nowait(spb.PlayResponse(event=message))
                            self._after = int(message.version)
                        if self._after >= head.version:
                            await self._at_head(head, out)
                out.put_nowait(_END)
                return
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - ends the stream with its status
                if status_for(exc).code != grpc.StatusCode.UNAVAILABLE.value[0]:
                    out.put_nowait(exc)
                    return
                await asyncio.sleep(OUTAGE_RETRY_SECONDS)

    async def _at_head(self, head: Game, out: asyncio.Queue[Any]) -> None:
        """The first page of each of the session's seats that is to act, then
        the state, once per version: the state closes what the head brought."""
        if not head.is_over:
            acting = head.to_act()
            for seat in self.seats:
                if seat in acting and (head.version, seat) not in self._offered:
                    self._offered.add((head.version, seat))
                    # the batch's head, as the read path would answer it: the
                    # seat was checked at open, and a seat sees the head live
                    moves = self._ledger.cache.legal_moves(head, seat)
                    page = self._page(head, seat, moves, 0, "", (), self._page_size)
                    if self._with_view:
                        page.view.CopyFrom(
                            self._ledger.cache.view(
                                head, self._viewer(head), game_messages.view
                            )
                        )
                    out.put_nowait(spb.PlayResponse(moves=page))
        if head.version != self._state_at:
            self._state_at = head.version
            now = self._ledger.clock()
            out.put_nowait(
                spb.PlayResponse(
                    state=presenters.summary(
                        head, self.principal, ended=head.is_over, now=now
                    )
                )
            )

    def _viewer(self, head: Game) -> Any:
        """Whose view the session's pages show (the disclosure rule's)."""
        if self._sight is None or self._sight[0] != head.version:
            self._sight = (head.version, disclose(self.principal, head).viewer)
        return self._sight[1]

    # ------------------------------------------------------------ client to game

    async def answer(
        self, requests: AsyncIterator[spb.PlayRequest], out: asyncio.Queue[Any]
    ) -> None:
        """Each client message in turn: its answer, or its refusal, in the stream."""
        try:
            async for request in requests:
                self.idle.clear()
                try:
                    answer = await self._one(request)
                except (asyncio.CancelledError, grpc.aio.AbortError):
                    raise
                except Exception as exc:  # noqa: BLE001 - the error table decides
                    status = status_for(exc)
                    answer = spb.PlayResponse(
                        refused=spb.SessionRefusal(
                            code=status.code,
                            message=status.message,
                            details=status.details,
                        )
                    )
                answer.ref = request.ref
                out.put_nowait(answer)
                self.idle.set()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - a broken message ends the stream
            out.put_nowait(exc)
        finally:
            self.idle.set()

    async def _one(self, request: spb.PlayRequest) -> spb.PlayResponse:
        kind = request.WhichOneof("kind")
        if kind == "move":
            return await self._move(request.move)
        if kind == "draw":
            return await self._draw(request.draw)
        if kind == "resign":
            seat = await self._seat(request.resign)
            result = await self._ledger.resign(self.game_id, seat)
            return spb.PlayResponse(
                control=spb.ControlAccepted(last_version=result.last_version)
            )
        if kind == "moves":
            return spb.PlayResponse(moves=await self._query(request.moves))
        if kind == "open":
            raise InvalidCommandError(
                "this session is open already; open another stream for another game",
                violations=(("open", "only as the first message"),),
            )
        raise InvalidCommandError(
            "a message must carry one of move, draw, resign or moves",
            violations=(("kind", "required"),),
        )

    async def _seat(self, message: Any) -> Seat:
        """The seat a message acts for: the unary calls' rule, within the
        session's seats."""
        game = await self._ledger.game(self.game_id)
        requested = message.seat if message.HasField("seat") else None
        if requested is None and len(self.seats) == 1:
            requested = self.seats[0]
        seat = acting_seat(self.principal, game, requested)
        if seat not in self.seats:
            raise PermissionDeniedError(f"this session does not play seat {seat}")
        return seat

    async def _move(self, move: spb.SessionMove) -> spb.PlayResponse:
        if not move.HasField("move"):
            raise InvalidCommandError(
                "move.move is required", violations=(("move.move", "required"),)
            )
        game = await self._ledger.game(self.game_id)
        seat = await self._seat(move)
        command = convert.command_from_any(game.ruleset, move.move)
        expected = move.expected_version if move.HasField("expected_version") else None
        signed = (
            SignedMove(move.move.type_url, move.move.value, move.signature, expected)
            if move.signature
            else None
        )
        result = await self._ledger.submit_move(
            self.game_id, command, seat, move.command_id, expected, signed, game
        )
        accepted = spb.MoveAccepted(
            command_id=move.command_id,
            first_version=result.first_version,
            last_version=result.last_version,
            replayed=result.replayed,
        )
        if result.receipt is not None:
            accepted.receipt.CopyFrom(presenters.receipt_message(result.receipt))
        return spb.PlayResponse(accepted=accepted)

    async def _draw(self, draw: spb.DrawAnswer) -> spb.PlayResponse:
        seat = await self._seat(draw)
        action = {
            spb.DRAW_ACTION_OFFER: self._ledger.offer_draw,
            spb.DRAW_ACTION_ACCEPT: self._ledger.accept_draw,
            spb.DRAW_ACTION_DECLINE: self._ledger.decline_draw,
        }.get(draw.action)
        if action is None:
            raise InvalidCommandError(
                "draw.action must be offer, accept or decline",
                violations=(("draw.action", "offer, accept or decline"),),
            )
        result = await action(self.game_id, seat)
        return spb.PlayResponse(
            control=spb.ControlAccepted(last_version=result.last_version)
        )

    async def _query(self, query: spb.MovesQuery) -> spb.LegalMovesPage:
        size = legal_pages.check_size(
            "moves.page_size", query.page_size or self._page_size
        )
        seat = await self._seat(query)
        game, seat, moves = await self._reads.legal_moves(
            self.principal, self.game_id, seat
        )
        offset, filter_text = 0, query.filter
        if query.page_token:
            data = page_tokens.decode(KIND, query.page_token)
            offset = data.get("o", -1)
            if data.get("g") != str(self.game_id) or data.get("s") != seat:
                raise page_tokens.PageTokenError()
            if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
                raise page_tokens.PageTokenError()
            if data.get("v") != game.version:
                raise page_tokens.PageTokenError(
                    "is stale: the game has moved on; start again"
                )
            if filter_text and filter_text != data.get("f"):
                raise page_tokens.PageTokenError("was issued for another filter")
            filter_text = str(data.get("f", ""))
        wanted = legal_filter.words(filter_text)
        found = await self._matches(game, seat, moves, wanted)
        return self._page(game, seat, moves, offset, filter_text, found, size)

    async def _matches(
        self, game: Game, seat: Seat, moves: Sequence[Command], wanted: tuple[str, ...]
    ) -> Sequence[int]:
        """Indexes of the moves matching ``wanted`` (``()`` without a filter)."""
        if not wanted:
            return ()
        key = (game.version, seat)
        texts = self._texts.get(key)
        if texts is None:
            texts = await self._ledger.io(legal_filter.texts, moves)
            self._texts = {key: texts}
        return await self._ledger.io(legal_filter.matching, texts, wanted)

    def _page(
        self,
        game: Game,
        seat: Seat,
        moves: Sequence[Command],
        offset: int,
        filter_text: str,
        found: Sequence[int],
        size: int,
    ) -> spb.LegalMovesPage:
        """The page at ``offset`` of ``moves`` (or of the ``found`` ones, when
        a filter was given)."""
        chosen: Sequence[Command] = (
            [moves[i] for i in found[offset : offset + size]]
            if filter_text.strip()
            else moves[offset : offset + size]
        )
        total = len(found) if filter_text.strip() else len(moves)
        page = spb.LegalMovesPage(
            version=game.version,
            seat=seat,
            total_size=total,
            filter=filter_text,
            offset=offset,
        )
        page.moves.extend(convert.command_to_any(game.ruleset, c) for c in chosen)
        if filter_text.strip():
            page.indexes.extend(found[offset : offset + size])
        if offset + size < total:
            page.next_page_token = page_tokens.encode(
                KIND,
                {
                    "g": str(self.game_id),
                    "v": game.version,
                    "s": seat,
                    "o": offset + size,
                    "f": filter_text,
                },
            )
        return page
