"""``GameService``: parse the request, call the ledger, present the result.

Thin on purpose (Cosmic Python's entrypoints): no rules here, no SQL, no
redaction logic.  The ledger is synchronous (psycopg pool), so each call runs
in a bounded thread pool while the asyncio server keeps streams cheap.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from functools import partial, wraps
from itertools import islice
from typing import Any, Callable
from uuid import UUID

import grpc

from domain.core import InvalidCommandError, Seat
from domain.games import all_games, find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import game_service_pb2_grpc as pb_grpc
from services import mapping, presenters
from services.application import GameLedger
from services.auth import Principal, current_principal
from services.errors import PermissionDeniedError, UnauthenticatedError, abort
from services.live import EventHub

log = logging.getLogger(__name__)


def parse_game_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except (ValueError, TypeError):
        raise InvalidCommandError(f"game_id {raw!r} is not a UUID") from None


def _encode_token(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode()


def _decode_token(token: str) -> dict[str, Any]:
    try:
        data = json.loads(base64.urlsafe_b64decode(token.encode()))
        if not isinstance(data, dict):
            raise ValueError
        return data
    except (ValueError, TypeError):
        raise InvalidCommandError("page_token is not one this server issued") from None


def guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Map every exception through :mod:`services.errors`."""

    @wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except (grpc.aio.AbortError, asyncio.CancelledError):
            raise
        except Exception as exc:  # noqa: BLE001 - the table decides
            await abort(context, exc)

    return wrapper


def guarded_stream(method: Callable[..., Any]) -> Callable[..., Any]:
    """:func:`guarded` for server-streaming handlers (async generators)."""

    @wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            async for item in method(self, request, context):
                yield item
        except (grpc.aio.AbortError, asyncio.CancelledError):
            raise
        except Exception as exc:  # noqa: BLE001 - the table decides
            await abort(context, exc)

    return wrapper


class Lru:
    """A small thread-safe-enough LRU (dict operations are atomic under the GIL)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        value = self._items.get(key)
        if value is not None:
            try:
                self._items.move_to_end(key)
            except KeyError:
                pass
        return value

    def put(self, key: Any, value: Any) -> Any:
        self._items[key] = value
        while len(self._items) > self._size:
            try:
                self._items.popitem(last=False)
            except KeyError:
                break
        return value


class Blocking:
    """Runs the synchronous ledger and views in the server's thread pool."""

    _executor: ThreadPoolExecutor

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._executor, partial(fn, *args))


class GameServicer(pb_grpc.GameServiceServicer, Blocking):
    def __init__(
        self, ledger: GameLedger, hub: EventHub, executor: ThreadPoolExecutor, open_creation: bool = True
    ) -> None:
        self._ledger = ledger
        self._hub = hub
        self._executor = executor
        self._open_creation = open_creation
        self._views = Lru(20_000)
        """(game, version, viewer) -> view: views are pure functions of both."""
        self._pages = Lru(20_000)
        """(game, version, seat, offset, size) -> legal-move page."""

    def _acting_seat(self, principal: Principal, game: Any, requested: Seat | None) -> Seat:
        """The seat the caller acts for.

        :raises UnauthenticatedError: spectators cannot act.
        :raises PermissionDeniedError: a seat the token does not control.
        """
        if principal.admin:
            if requested is None:
                raise InvalidCommandError("admins must name the seat")
            return requested
        if principal.grant is None:
            raise UnauthenticatedError("this call needs a seat token (authorization: Bearer <token>)")
        seats = principal.seats_in(game.id)
        if not seats:
            raise PermissionDeniedError("this token is for another game")
        if requested is not None:
            if requested not in seats:
                raise PermissionDeniedError(f"this token does not control seat {requested}")
            return requested
        if len(seats) == 1:
            return seats[0]
        acting = [s for s in seats if s in game.to_act()]
        if len(acting) == 1:
            return acting[0]
        raise InvalidCommandError(f"this token controls seats {list(seats)}: name the seat")

    # ------------------------------------------------------------ writes

    @guarded
    async def CreateGame(self, request: pb.CreateGameRequest, context: Any) -> pb.CreateGameResponse:
        principal = current_principal.get()
        if not self._open_creation and not principal.admin:
            raise PermissionDeniedError("only the admin may create games on this server")
        ruleset = find_game(request.game_type)
        if not request.HasField("setup"):
            raise InvalidCommandError(f"setup is required ({ruleset.proto_package}.{ruleset.setup_model.__name__})")
        setup = mapping.model_from_any(ruleset, request.setup, ruleset.setup_model)
        created = await self._run(
            self._ledger.create_game, ruleset.name, setup, tuple(request.entropy), tuple(request.player_ids)
        )
        game = await self._run(self._ledger.load, created.game_id)
        return pb.CreateGameResponse(
            game=presenters.summary(game, principal, ended=game.is_over),
            tokens=[pb.PlayerToken(player=t.player, seats=t.seats, token=t.token) for t in created.tokens],
        )

    @guarded
    async def SubmitMove(self, request: pb.SubmitMoveRequest, context: Any) -> pb.SubmitMoveResponse:
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        if principal.admin:
            raise PermissionDeniedError("the admin token observes; moves need a seat token")
        if principal.grant is None:
            raise UnauthenticatedError("SubmitMove needs a seat token (authorization: Bearer <token>)")
        game = self._ledger.held(game_id) or await self._run(self._ledger.latest, game_id)
        seat = self._acting_seat(principal, game, request.seat if request.HasField("seat") else None)
        if not request.HasField("move"):
            raise InvalidCommandError("move is required")
        command = mapping.command_from_any(game.ruleset, request.move)
        expected = request.expected_version if request.HasField("expected_version") else None
        result = None
        pending = self._ledger.begin(game_id, command, seat, request.command_id, expected)
        if pending is not None:  # decided on the loop; no thread hop while it commits
            try:
                await asyncio.wrap_future(pending.future)
            except Exception:  # noqa: BLE001 - finish() reads the outcome from the future itself
                pass
            result = self._ledger.finish(pending)
        if result is None:  # anything that needs the database to sort out
            result = await self._run(
                self._ledger.submit, game_id, command, seat, request.command_id, expected
            )
        if result.game is not None:
            head, events = result.game, list(result.events)
        else:
            head = await self._run(self._ledger.load, game_id)
            events = await self._run(
                self._ledger.read_events, game_id, result.first_version - 1, result.last_version
            )
        viewer = principal.viewer_for(game_id)
        return pb.SubmitMoveResponse(
            first_version=result.first_version,
            last_version=result.last_version,
            replayed=result.replayed,
            events=[presenters.event_message(head, e, viewer, show_hashes=head.is_over) for e in events],
            game=presenters.summary(head, principal, ended=head.is_over),
            log_position=result.log_position,
        )

    # ------------------------------------------------------------ reads

    @guarded
    async def GetGame(self, request: pb.GetGameRequest, context: Any) -> pb.GetGameResponse:
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        at = request.at_version if request.HasField("at_version") else None
        held = self._ledger.current_in_memory(game_id) if at is None else None
        if held is not None:  # no I/O needed: answer on the event loop, no thread hop
            return self._get_game(principal, game_id, at, held)
        return await self._run(self._get_game, principal, game_id, at)

    def _get_game(
        self, principal: Principal, game_id: UUID, at: int | None, held: Any = None
    ) -> pb.GetGameResponse:
        """One thread hop for the whole read (each hop costs more than the work)."""
        head = game = held or self._ledger.load(game_id)
        if at is not None:
            if not 1 <= at <= head.version:
                raise InvalidCommandError(f"at_version must be between 1 and {head.version}")
            game = self._ledger.load(game_id, at)
        viewer = principal.viewer_for(game_id)
        key = (game_id, game.version, viewer)
        view = self._views.get(key)
        if view is None:
            view = self._views.put(key, presenters.view(game, viewer))
        return pb.GetGameResponse(game=presenters.summary(game, principal, ended=head.is_over), view=view)

    @guarded
    async def ListLegalMoves(
        self, request: pb.ListLegalMovesRequest, context: Any
    ) -> pb.ListLegalMovesResponse:
        held = self._ledger.current_in_memory(parse_game_id(request.game_id))
        if held is not None:  # a page is bounded work and needs no I/O: stay on the loop
            return self._list_legal_moves(current_principal.get(), request, held)
        return await self._run(self._list_legal_moves, current_principal.get(), request)

    def _list_legal_moves(
        self, principal: Principal, request: pb.ListLegalMovesRequest, held: Any = None
    ) -> pb.ListLegalMovesResponse:
        game_id = parse_game_id(request.game_id)
        game = held or self._ledger.load(game_id)
        seat = self._acting_seat(principal, game, request.seat if request.HasField("seat") else None)
        page_size = request.page_size or 100
        if not 1 <= page_size <= 1000:
            raise InvalidCommandError("page_size must be between 1 and 1000")
        offset = 0
        if request.page_token:
            token = _decode_token(request.page_token)
            if token.get("v") != game.version or token.get("s") != seat:
                raise InvalidCommandError("page_token is stale: the game has moved on; start again")
            offset = int(token.get("o", 0))
        key = (game_id, game.version, seat, offset, page_size)
        cached = self._pages.get(key)
        if cached is not None:
            moves, more = cached
        elif not game.is_over and seat in game.to_act():
            ruleset = game.ruleset
            chunk = list(islice(ruleset.legal_commands(game.state, seat), offset, offset + page_size + 1))
            moves = [mapping.command_to_any(ruleset, c) for c in chunk[:page_size]]
            more = len(chunk) > page_size
            self._pages.put(key, (moves, more))
        else:
            moves, more = [], False
        return pb.ListLegalMovesResponse(
            moves=moves,
            next_page_token=_encode_token({"v": game.version, "s": seat, "o": offset + page_size}) if more else "",
            version=game.version,
            seat=seat,
        )

    @guarded_stream
    async def StreamGameEvents(self, request: pb.StreamGameEventsRequest, context: Any) -> Any:
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        if request.after_version < 0:
            raise InvalidCommandError("after_version must be >= 0")
        viewer = principal.viewer_for(game_id)
        wakeup = self._hub.subscribe(game_id)
        try:
            head = self._ledger.current_in_memory(game_id) or await self._run(self._ledger.load, game_id)
            last = request.after_version
            while True:
                wakeup.clear()
                recent = self._ledger.recent_events(game_id, last)  # live tail: no I/O, no thread hop
                if recent is not None:
                    head, batch = recent
                else:
                    batch = await self._run(self._ledger.read_events, game_id, last, None, 256)
                    if batch:
                        head = await self._run(self._ledger.load, game_id)
                for event in batch:
                    yield presenters.event_message(head, event, viewer, show_hashes=head.is_over or viewer.admin)
                    last = event.originator_version
                if len(batch) == 256:
                    continue
                if request.stop_at_head or (head.is_over and last >= head.version):
                    return
                await self._hub.wait(wakeup)
        finally:
            self._hub.unsubscribe(game_id, wakeup)

    @guarded
    async def ListGames(self, request: pb.ListGamesRequest, context: Any) -> pb.ListGamesResponse:
        page_size = request.page_size or 50
        if not 1 <= page_size <= 500:
            raise InvalidCommandError("page_size must be between 1 and 500")
        before = None
        if request.page_token:
            token = _decode_token(request.page_token)
            try:
                before = (datetime.fromisoformat(token["t"]), UUID(token["id"]))
            except (KeyError, ValueError, TypeError):
                raise InvalidCommandError("page_token is not one this server issued") from None
        if request.game_type:
            find_game(request.game_type)
        rows = await self._run(self._ledger.list_games, page_size + 1, before, request.game_type or None)
        games = [
            pb.GameSummary(
                game_id=str(r["game_id"]), game_type=r["game_type"], players=r["players"],
                seats=r["seats"], version=r["version"], status=r["status"], content=r["content"],
                created_at=presenters.timestamp(r["created_at"]),
                role=current_principal.get().role,
                player_ids=r["player_ids"] or [],
            )
            for r in rows[:page_size]
        ]
        next_token = ""
        if len(rows) > page_size:
            last = rows[page_size - 1]
            next_token = _encode_token({"t": last["created_at"].isoformat(), "id": str(last["game_id"])})
        return pb.ListGamesResponse(games=games, next_page_token=next_token)

    @guarded
    async def ListGameTypes(self, request: pb.ListGameTypesRequest, context: Any) -> pb.ListGameTypesResponse:
        return pb.ListGameTypesResponse(
            game_types=[
                pb.GameType(
                    name=g.name, title=g.title, min_players=g.min_players, max_players=g.max_players,
                    setup_message=f"{g.proto_package}.{g.setup_model.__name__}",
                    move_message=f"{g.proto_package}.Move",
                    event_message=f"{g.proto_package}.Event",
                    view_message=f"{g.proto_package}.{g.view_model.__name__}",
                    content=g.content_label,
                )
                for g in all_games()
            ]
        )
