"""``GameService``: parse the request, call the ledger, present the result.

Thin on purpose (Cosmic Python's entrypoints): no rules, no SQL, no caches,
no futures and no redaction logic here.  ``SubmitMove`` awaits the one move
use case (``GameLedger.submit_move``); reads await ``GameLedger.game`` /
``game_since``, which answer from the one game cache (no thread hop while it
vouches for the game) or read the store in the ledger's executor.  Views and
legal-move lists come from the cache too, computed once per version and
viewer.  The read RPCs ask the service layer's read path
(:class:`~services.ledger.reading.game_reads.GameReads`: what this caller may
see, as of which version), the one the dashboard asks too.  The seat rule
(:func:`services.ledger.callers.acting_seat`), the event stream's loop
(:mod:`services.api.event_stream`) and listing pages
(:mod:`services.api.game_listing`) live in their own modules.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from functools import partial
from typing import Any
from uuid import UUID

from domain.contract.core import Command, InvalidCommandError, Seat
from domain.games import find_game
from domain.ledger.records import CONCLUDED_TYPE
from domain.ledger.signatures import SignedMove
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services.api import game_types, legal_pages, presenters, read_tokens
from services.api.auth import current_principal
from services.api.event_stream import GameEventStream
from services.api.game_listing import next_page_token, parse_cursor
from services.api.partial_response import response_fields
from services.api.rpc import check_after_version, guarded, parse_game_id
from services.ledger.application import GameLedger
from services.ledger.callers import (
    PermissionDeniedError,
    Principal,
    UnauthenticatedError,
    acting_seat,
    decider,
)
from services.ledger.lru import Lru
from services.ledger.reading.disclosure import disclose
from services.ledger.reading.game_reads import GameReads
from services.live.listen_hub import EventHub
from services.proto import convert, game_messages

log = logging.getLogger(__name__)


#: Games whose creation time ``GetGame`` keeps (a few bytes each).
CREATED_AT_CACHE = 100_000

#: What a seat-token RPC answers the admin token, and a call without a seat
#: token: ``SubmitMove``'s, then ``Resign``'s.
MOVE_REFUSALS = (
    "the admin token observes; moves need a seat token",
    "SubmitMove needs a seat token (authorization: Bearer <token>)",
)
DRAW_REFUSALS = (
    "the admin token offers and answers draws for nobody; Adjudicate records a result",
    "draw offers need a seat token: a seat offers and answers only for itself",
)
RESIGN_REFUSALS = (
    "the admin token resigns for nobody; Adjudicate records a result",
    "Resign needs a seat token: a seat resigns only for itself",
)


def _by_seat(
    use_case: Callable[[GameLedger, UUID, Seat], Awaitable[Any]],
    refusals: tuple[str, str],
    *,
    ends: bool,
) -> Callable[..., Any]:
    """An RPC by which a seat acts for itself alone (resign, offer, accept or
    decline a draw): the ledger's ``use_case`` for the seat the caller's token
    acts for, answered as an ending (``ends``) or as the game's new control
    state.  The four differ only in these three things."""

    @guarded
    async def rpc(self: GameServicer, request: Any, context: Any) -> Any:
        principal, game_id, _, seat = await self._seat_acting(request, refusals)
        result = await use_case(self._ledger, game_id, seat)
        if ends:
            return self._ended(principal, result)
        return presenters.control_response(principal, result)

    return rpc


class GameServicer(pb_grpc.GameServiceServicer):
    def __init__(
        self,
        ledger: GameLedger,
        hub: EventHub,
        open_creation: bool = True,
        tournament_of: Callable[[UUID], UUID | None] | None = None,
        reads: GameReads | None = None,
    ) -> None:
        self._ledger = ledger
        self._tournament_of = tournament_of or (lambda game_id: None)
        self._open_creation = open_creation
        self._reads = reads or GameReads(ledger)
        self._stream = GameEventStream(ledger, hub, self._reads)
        self.events = self._stream
        """The event stream, shared with the seat sessions of the same server."""
        self._created_at: Lru[UUID, Any] = Lru(CREATED_AT_CACHE)
        self._run = ledger.io
        self._tournament_in = partial(self._run, self._tournament_of)

    # ------------------------------------------------------------ writes

    @guarded
    async def CreateGame(
        self, request: pb.CreateGameRequest, context: Any
    ) -> pb.CreateGameResponse:
        principal = current_principal.get()
        if not self._open_creation and not principal.admin:
            raise PermissionDeniedError(
                "only the admin may create games on this server", "ADMIN_ONLY"
            )
        ruleset = find_game(request.game_type)
        setup = convert.setup_from_any(
            ruleset, request.setup if request.HasField("setup") else None
        )
        create = partial(
            self._ledger.create_game,
            ruleset.name,
            setup,
            entropy=tuple(request.entropy),
            player_ids=tuple(request.player_ids),
            spectator_delay=convert.delay_from_message(request.spectator_delay),
            seat_keys=tuple(request.seat_public_keys),
            time_control=convert.time_control_from_message(request),
        )
        created = await self._run(create)
        game = created.game or await self._ledger.game(created.game_id)
        return pb.CreateGameResponse(
            game=presenters.summary(
                game, principal, ended=game.is_over, now=self._ledger.clock()
            ),
            tokens=[
                pb.PlayerToken(player=t.player, seats=t.seats, token=t.token)
                for t in created.tokens
            ],
            receipt=presenters.receipt_message(created.receipt)
            if created.receipt
            else None,
        )

    @guarded
    async def SubmitMove(
        self, request: pb.SubmitMoveRequest, context: Any
    ) -> pb.SubmitMoveResponse:
        principal, game_id, game, seat = await self._seat_acting(request, MOVE_REFUSALS)
        if not request.HasField("move"):
            raise InvalidCommandError(
                "move is required", violations=(("move", "required"),)
            )
        wanted = response_fields(request.response_mask)  # unset: every field
        if request.next_moves_page_size:  # checked before anything is stored
            legal_pages.check_size("next_moves_page_size", request.next_moves_page_size)
        command = convert.command_from_any(game.ruleset, request.move)
        expected = (
            request.expected_version if request.HasField("expected_version") else None
        )
        signed = (
            SignedMove(
                request.move.type_url,
                request.move.value,
                request.signature,
                expected,
            )
            if request.signature
            else None
        )
        result = await self._ledger.submit_move(
            game_id, command, seat, request.command_id, expected, signed, game
        )
        head = result.game
        answer = pb.SubmitMoveResponse()
        scalars: dict[str, int | bool | str] = {
            "first_version": result.first_version,
            "last_version": result.last_version,
            "replayed": result.replayed,
            "log_position": _global_position(principal, result.log_position),
        }
        for name, value in scalars.items():
            if name in wanted:
                setattr(answer, name, value)
        if "read_token" in wanted:  # sealed only when asked: a cipher per move
            answer.read_token = read_tokens.issue(result.log_position, principal)
        if "events" in wanted or "receipt" in wanted:
            messages, receipt = _as_seen(principal, result, "events" in wanted)
            answer.events.extend(messages)
            if receipt is not None and "receipt" in wanted:
                answer.receipt.CopyFrom(receipt)
        if "game" in wanted:
            answer.game.CopyFrom(
                presenters.summary(
                    head, principal, ended=head.is_over, now=self._ledger.clock()
                )
            )
        if request.next_moves_page_size:
            self._next_moves(answer, principal, head, request.next_moves_page_size)
        return answer

    def _next_moves(
        self, answer: pb.SubmitMoveResponse, principal: Principal, head: Any, size: int
    ) -> None:
        """The first page of the legal moves of the caller's seat to act after
        the move, as ``ListLegalMoves`` would answer it (its token pages on
        there): one call per move for a client that keeps to unary calls."""
        if head.is_over:
            return
        acting = [s for s in principal.seats_in(head.id) if s in head.to_act()]
        if not acting:
            return
        seat = acting[0]
        moves = self._ledger.cache.legal_moves(head, seat)
        listed = answer.next_legal_moves
        listed.version, listed.seat, listed.total_size = head.version, seat, len(moves)
        page, more = legal_pages.page(moves, 0, size)
        listed.moves.extend(legal_pages.packed(head.ruleset, page))
        if more:
            listed.next_page_token = legal_pages.page_token(
                head.id, head.version, seat, size
            )

    # ------------------------------------------------------------ reads

    @guarded
    async def GetGame(
        self, request: pb.GetGameRequest, context: Any
    ) -> pb.GetGameResponse:
        principal, game_id = _caller_and_game(request)
        seen = await self._reads.game(
            principal,
            game_id,
            request.at_version if request.HasField("at_version") else None,
            request.min_version,
            context.time_remaining(),
        )
        game, head = seen.game, seen.head
        view = self._ledger.cache.view(game, seen.sight.viewer, game_messages.view)
        now = self._ledger.clock() if game is head else game.modified_on
        summary = presenters.summary(game, principal, ended=head.is_over, now=now)
        created = await self._created(game_id)
        if created is not None:
            summary.created_at.FromDatetime(created)
        return pb.GetGameResponse(game=summary, view=view)

    async def _created(self, game_id: UUID) -> Any:
        """The game's creation time as ``ListGames`` shows and orders it.

        Why the listing row's and not the ``GameCreated`` event's: a game has
        one creation time, and the listing's (the database's clock at insert,
        which the audit also checks the event's time against) is the one the
        list is ordered by.  It never changes, so it is read once per game.
        """
        created = self._created_at.get(game_id)
        if created is None:
            row = await self._run(self._ledger.game_row, game_id)
            if row is None:
                return None
            created = self._created_at.put(game_id, row["created_at"])
        return created

    @guarded
    async def ListLegalMoves(
        self, request: pb.ListLegalMovesRequest, context: Any
    ) -> pb.ListLegalMovesResponse:
        game_id = parse_game_id(request.game_id)
        game, seat, moves = await self._reads.legal_moves(
            current_principal.get(),
            game_id,
            request.seat if request.HasField("seat") else None,
            request.min_version,
            context.time_remaining(),
        )
        response = pb.ListLegalMovesResponse(
            version=game.version, seat=seat, total_size=len(moves)
        )
        if request.sample:
            n = legal_pages.check_size("sample", request.sample)
            chosen: Sequence[Command] = legal_pages.sample(moves, n)
        else:
            size = legal_pages.check_size("page_size", request.page_size or 100)
            offset = legal_pages.page_offset(
                request.page_token, game_id, game.version, seat
            )
            chosen, more = legal_pages.page(moves, offset, size)
            if more:
                response.next_page_token = legal_pages.page_token(
                    game_id, game.version, seat, offset + size
                )
        response.moves.extend(legal_pages.packed(game.ruleset, chosen))
        if request.with_sentences:
            response.sentences.extend(legal_pages.sentences(game, seat, chosen))
        return response

    @guarded
    async def StreamGameEvents(
        self, request: pb.StreamGameEventsRequest, context: Any
    ) -> Any:
        principal, game_id = _caller_and_game(request)
        after = check_after_version(request.after_version)
        await self._reads.head(
            principal, game_id, request.min_version, context.time_remaining()
        )
        events = self._stream.events(principal, game_id, after, request.stop_at_head)
        async with aclosing(events):
            async for message in events:
                yield message

    @guarded
    async def ListGames(
        self, request: pb.ListGamesRequest, context: Any
    ) -> pb.ListGamesResponse:
        page_size = request.page_size or 50
        if not 1 <= page_size <= 500:
            raise InvalidCommandError(
                "page_size must be between 1 and 500",
                violations=(("page_size", "must be between 1 and 500"),),
            )
        before = parse_cursor(request.page_token, request.game_type)
        if request.game_type:
            find_game(request.game_type)
        principal = current_principal.get()
        rows = await self._run(
            self._reads.listing, principal, page_size + 1, before, request.game_type
        )
        return pb.ListGamesResponse(
            games=[presenters.listed(r, principal) for r in rows[:page_size]],
            next_page_token=next_page_token(rows, page_size, request.game_type),
        )

    # ------------------------------------------------------------ endings

    Resign = _by_seat(GameLedger.resign, RESIGN_REFUSALS, ends=True)
    OfferDraw = _by_seat(GameLedger.offer_draw, DRAW_REFUSALS, ends=False)
    AcceptDraw = _by_seat(GameLedger.accept_draw, DRAW_REFUSALS, ends=True)
    DeclineDraw = _by_seat(GameLedger.decline_draw, DRAW_REFUSALS, ends=False)

    async def _seat_acting(
        self,
        request: Any,
        refusals: tuple[str, str],
    ) -> tuple[Principal, UUID, Any, Seat]:
        """The caller, the game (its id and state) and the seat the caller's
        seat token acts for in ``request``: a seat acts only for itself.

        :raises PermissionDeniedError: for the admin token (``refusals[0]``).
        :raises UnauthenticatedError: without a seat token (``refusals[1]``).
        """
        principal, game_id = _caller_and_game(request)
        admin_refusal, needs_token = refusals
        if principal.admin:
            raise PermissionDeniedError(admin_refusal, "ADMIN_CANNOT_MOVE")
        if principal.grant is None:
            raise UnauthenticatedError(needs_token)
        game = await self._ledger.game(game_id)
        requested = request.seat if request.HasField("seat") else None
        return principal, game_id, game, acting_seat(principal, game, requested)

    @guarded
    async def Abort(self, request: pb.AbortRequest, context: Any) -> pb.EndGameResponse:
        principal, game_id, by = await self._arbiter(request, seats_may=True)
        result = await self._ledger.abort(game_id, by, request.reason)
        return self._ended(principal, result)

    @guarded
    async def Adjudicate(
        self, request: pb.AdjudicateRequest, context: Any
    ) -> pb.EndGameResponse:
        principal, game_id, by = await self._arbiter(request, seats_may=False)
        result = await self._ledger.adjudicate(
            game_id, tuple(request.ranks), request.reason, by
        )
        return self._ended(principal, result)

    @guarded
    async def ClaimTimeout(
        self, request: pb.ClaimTimeoutRequest, context: Any
    ) -> pb.EndGameResponse:
        principal, game_id = _caller_and_game(request)
        result = await self._ledger.claim_timeout(game_id, f"claim:{principal.role}")
        return self._ended(principal, result)

    async def _arbiter(
        self, request: pb.AbortRequest | pb.AdjudicateRequest, *, seats_may: bool
    ) -> tuple[Principal, UUID, str]:
        """The caller, the game's id and who ends the game of ``request`` by
        decision: the admin, the organiser of its tournament, and
        (``seats_may``) a seat of the game.

        :raises UnauthenticatedError, PermissionDeniedError:
        """
        principal, game_id = _caller_and_game(request)
        by = await decider(principal, game_id, self._tournament_in, seats_may=seats_may)
        return principal, game_id, by

    def _ended(self, principal: Principal, result: Any) -> pb.EndGameResponse:
        head = result.game
        messages, receipt = _as_seen(principal, result)
        return pb.EndGameResponse(
            first_version=result.first_version,
            last_version=result.last_version,
            events=messages,
            game=presenters.summary(head, principal, ended=True),
            log_position=_global_position(principal, result.log_position),
            receipt=receipt,
            read_token=read_tokens.issue(result.log_position, principal),
        )

    @guarded
    async def GetLedgerKey(
        self, request: pb.GetLedgerKeyRequest, context: Any
    ) -> pb.LedgerKey:
        signer = self._ledger.signer
        return pb.LedgerKey(
            public_key=signer.public_key,
            key_id=signer.key_id,
            algorithm="Ed25519",
            keys=presenters.receipt_keys(self._ledger.keyring, signer.key_id),
        )

    @guarded
    async def ListGameTypes(
        self, request: pb.ListGameTypesRequest, context: Any
    ) -> pb.ListGameTypesResponse:
        return game_types.list_game_types()


def _caller_and_game(request: Any) -> tuple[Principal, UUID]:
    """The caller and the game ``request`` names.

    :raises InvalidCommandError: when ``request.game_id`` is no game id.
    """
    return current_principal.get(), parse_game_id(request.game_id)


def _as_seen(
    principal: Principal, result: Any, events: bool = True
) -> tuple[list[pb.GameEvent], pb.Receipt | None]:
    """A write's new events as the caller may see them (unless ``events`` is
    false), and its receipt.

    The receipt also rides on the conclusion, when the write ended the game.
    """
    receipt = presenters.receipt_message(result.receipt) if result.receipt else None
    if not events:
        return [], receipt
    head = result.game
    sight = disclose(principal, head)
    messages = [
        presenters.event_message(head, e, sight.viewer, show_hashes=sight.show_hashes)
        for e in result.events
    ]
    if receipt is not None and messages and messages[-1].type == CONCLUDED_TYPE:
        messages[-1].receipt.CopyFrom(receipt)
    return messages, receipt


def _global_position(principal: Principal, position: int) -> int:
    """The deprecated ``log_position`` field: the admin's only.

    The global position counts every game's events, hidden ones included;
    anyone else reads their own writes with the answer's ``read_token``
    (:mod:`services.api.read_tokens`).
    """
    return position if principal.admin else 0
