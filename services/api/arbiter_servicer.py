"""``ArbiterService``: an arbiter's controls over running games.

Thin like ``GameService``: who may call is decided here (the admin token, or
the organiser token of the game's tournament, as for ``Adjudicate``), and
everything else is the ledger's (:meth:`GameLedger.pause` and the others,
each one event through the one write tail).  A round's games are paused one
by one, each its own write: a game that ended or was already paused is
reported unchanged, never an error, so a round pause can be repeated safely.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any
from uuid import UUID

from domain.contract.core import InvalidCommandError, RuleError
from ledger.v1 import arbiter_service_pb2 as pb
from ledger.v1 import arbiter_service_pb2_grpc as pb_grpc
from services.api import presenters
from services.api.auth import current_principal
from services.api.rpc import guarded, parse_game_id
from services.api.tournament_servicer import organised
from services.ledger.application import GameLedger, Recorded
from services.ledger.callers import Principal, decider


class ArbiterServicer(pb_grpc.ArbiterServiceServicer):
    def __init__(
        self,
        ledger: GameLedger,
        tournament_of: Callable[[UUID], UUID | None],
        round_games: Callable[[UUID, int], tuple[int, list[UUID]]],
    ) -> None:
        """``round_games(tournament, n)``: round ``n``'s number (0: the latest)
        and its games' ids (:meth:`TournamentDesk.round_games`)."""
        self._ledger = ledger
        self._tournament_of = tournament_of
        self._round_games = round_games

    @guarded
    async def AddTime(self, request: pb.AddTimeRequest, context: Any) -> Any:
        seat, added_ms = request.seat, request.added_ms
        return await self._control(
            request,
            lambda game_id, by: self._ledger.add_time(game_id, seat, added_ms, by),
        )

    @guarded
    async def PauseGame(self, request: pb.PauseGameRequest, context: Any) -> Any:
        return await self._control(request, self._ledger.pause)

    @guarded
    async def ResumeGame(self, request: pb.ResumeGameRequest, context: Any) -> Any:
        return await self._control(request, self._ledger.resume)

    @guarded
    async def PauseRound(
        self, request: pb.PauseRoundRequest, context: Any
    ) -> pb.RoundControlResponse:
        return await self._each_game(request, self._ledger.pause)

    @guarded
    async def ResumeRound(
        self, request: pb.ResumeRoundRequest, context: Any
    ) -> pb.RoundControlResponse:
        return await self._each_game(request, self._ledger.resume)

    async def _each_game(
        self,
        request: pb.PauseRoundRequest | pb.ResumeRoundRequest,
        control: Callable[[UUID, str], Awaitable[Recorded]],
    ) -> pb.RoundControlResponse:
        tournament_id = organised(request)
        if request.round < 0:
            raise InvalidCommandError(
                "round must be 0 (the latest) or a round's number",
                violations=(("round", "0 or more"),),
            )
        number, games = await self._ledger.io(
            self._round_games, tournament_id, request.round
        )
        principal = current_principal.get()
        by = "admin" if principal.admin else f"organiser:{tournament_id}"
        out = pb.RoundControlResponse(round=number)
        for game_id in games:
            try:
                await control(game_id, by)
            except RuleError:  # ended, already paused (resumed), or flagged
                out.unchanged_game_ids.append(str(game_id))
            else:
                out.changed_game_ids.append(str(game_id))
        return out

    async def _control(
        self, request: Any, control: Callable[[UUID, str], Awaitable[Recorded]]
    ) -> Any:
        """One game's control by its arbiter, answered as the arbiter sees it."""
        principal, game_id, by = await self._arbiter(request)
        return presenters.control_response(principal, await control(game_id, by))

    async def _arbiter(self, request: Any) -> tuple[Principal, UUID, str]:
        """The caller, the game and the ``by`` its control records.

        :raises UnauthenticatedError, PermissionDeniedError: for anyone but
            the admin and the organiser of the game's tournament.
        """
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        tournament_in = partial(self._ledger.io, self._tournament_of)
        return principal, game_id, await decider(principal, game_id, tournament_in)
