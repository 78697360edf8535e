"""TournamentService: organiser actions, pairings, standings and players' tokens."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.tournament.standings import TIE_BREAKS
from ledger.v1 import tournament_service_pb2 as pb
from ledger.v1 import tournament_service_pb2_grpc as pb_grpc
from services.api.auth import current_principal
from services.api.read_rpc import from_row, requested_position
from services.api.rpc import guarded
from services.ledger.callers import (
    ANONYMOUS,
    PermissionDeniedError,
    UnauthenticatedError,
)
from services.ledger.io_pool import IoPool
from services.proto import convert, limits
from services.proto.clock_messages import time_control_message
from services.proto.game_messages import delay_message, timestamp
from services.tournaments import organisers


def parse_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except (ValueError, TypeError):
        raise InvalidCommandError(
            f"tournament_id {limits.excerpt(raw)} is not a UUID"
        ) from None


def organised(request: Any) -> UUID:
    """The tournament ``request`` names, for its organiser (or the admin) only.

    :raises InvalidCommandError: for an id that is not a UUID.
    :raises UnauthenticatedError, PermissionDeniedError: for anyone else.
    """
    tournament_id = parse_id(request.tournament_id)
    principal = current_principal.get()
    if principal.admin:
        return tournament_id
    grant = principal.tournament
    if grant is None:
        raise UnauthenticatedError(
            "organiser actions need the tournament's organiser token"
        )
    if grant.tournament_id != tournament_id or grant.role != "organiser":
        raise PermissionDeniedError(
            "this token is not this tournament's organiser token"
        )
    return tournament_id


def summary(t: Any) -> pb.TournamentSummary:
    s = t.state
    return from_row(
        pb.TournamentSummary,
        s,
        tournament_id=str(t.id),
        rounds=s.total_rounds,
        current_round=s.current_round,
        status=s.status,
        version=t.version,
        spectator_delay=delay_message(t.spectator_delay) if t.spectator_delay else None,
        time_control=time_control_message(t.time_control)
        if getattr(t, "time_control", None)
        else None,
        automatic_rounds=pb.AutomaticRounds(gap_seconds=t.automatic_rounds.gap_seconds)
        if getattr(t, "automatic_rounds", None)
        else None,
        next_round_at=timestamp(t.next_round_at) if t.next_round_at else None,
    )


def round_message(record: Any) -> pb.Round:
    # an aborted game is no result: its table stays unfinished until the
    # organiser replays or reschedules it (docs/endings.md)
    results = {r.game_id: r.ranks for r in record.results if r.is_scored}
    return pb.Round(
        round=record.round,
        tables=[
            from_row(
                pb.Table,
                t,
                ranks=results.get(t.game_id, ()),
                finished=t.game_id in results,
            )
            for t in record.tables
        ],
        byes=record.byes,
    )


def standings_message(t: Any) -> pb.Standings:
    return pb.Standings(
        tournament_id=str(t.id),
        round=t.state.current_round,
        status=t.state.status,
        tie_breaks=TIE_BREAKS,
        rows=[from_row(pb.StandingRow, r, played=r.games) for r in t.standings()],
    )


class TournamentServicer(pb_grpc.TournamentServiceServicer):
    def __init__(self, desk: Any, results: Any, executor: Any, hub: Any) -> None:
        self._desk = desk
        self._results = results
        self._run = IoPool(executor)
        self._hub = hub

    @guarded
    async def CreateTournament(
        self, request: pb.CreateTournamentRequest, context: Any
    ) -> pb.CreateTournamentResponse:
        principal = current_principal.get()
        if not (principal.admin or principal.organiser):
            if principal == ANONYMOUS:
                raise UnauthenticatedError(
                    "CreateTournament needs the admin token or an organiser token"
                )
            raise PermissionDeniedError(
                "only the admin or an organiser may create tournaments"
            )
        setup = limits.parse_json_object("setup_json", request.setup_json)
        tournament, token = await self._run(
            self._desk.create,
            request.name,
            request.game_type,
            request.format,
            request.rounds,
            request.table_size or 2,
            setup,
            convert.delay_from_message(request.spectator_delay),
            convert.time_control_from_message(request),
            {"gap_seconds": request.automatic_rounds.gap_seconds}
            if request.HasField("automatic_rounds")
            else None,
        )
        return pb.CreateTournamentResponse(
            tournament=summary(tournament), organiser_token=token
        )

    @guarded
    async def IssueOrganiserToken(
        self, request: pb.IssueOrganiserTokenRequest, context: Any
    ) -> pb.IssueOrganiserTokenResponse:
        principal = current_principal.get()
        if principal == ANONYMOUS:
            raise UnauthenticatedError("IssueOrganiserToken needs the admin token")
        if not principal.admin:
            raise PermissionDeniedError("only the admin issues organiser tokens")
        if not request.label.strip():
            raise InvalidCommandError("label is required: whom is this token for?")
        token = await self._run(organisers.issue, self._desk.datastore, request.label)
        return pb.IssueOrganiserTokenResponse(
            label=request.label, organiser_token=token
        )

    @guarded
    async def RegisterPlayer(
        self, request: pb.RegisterPlayerRequest, context: Any
    ) -> pb.RegisterPlayerResponse:
        tid = organised(request)
        token = await self._run(self._desk.register, tid, request.player_id)
        return pb.RegisterPlayerResponse(
            player_id=request.player_id, player_token=token
        )

    @guarded
    async def WithdrawPlayer(
        self, request: pb.WithdrawPlayerRequest, context: Any
    ) -> pb.TournamentSummary:
        tid = organised(request)
        return summary(await self._run(self._desk.withdraw, tid, request.player_id))

    @guarded
    async def FinishTournament(
        self, request: pb.FinishTournamentRequest, context: Any
    ) -> pb.TournamentSummary:
        tid = organised(request)
        return summary(await self._run(self._desk.finish, tid))

    @guarded
    async def ReplayAbortedGame(
        self, request: pb.ReplayAbortedGameRequest, context: Any
    ) -> pb.Round:
        tid = organised(request)
        try:
            game_id = UUID(request.game_id)
        except ValueError:
            raise InvalidCommandError(
                f"game_id {limits.excerpt(request.game_id)} is not a UUID",
                violations=(("game_id", "a UUID"),),
            ) from None
        tournament = await self._run(self._desk.replay_aborted, tid, game_id)
        return round_message(tournament.state.round_records[-1])

    @guarded
    async def StartRound(self, request: pb.StartRoundRequest, context: Any) -> pb.Round:
        tid = organised(request)
        tournament = await self._run(self._desk.start_round, tid)
        return round_message(tournament.state.round_records[-1])

    async def _load(self, request: Any) -> Any:
        """The tournament ``request.tournament_id`` names, as it is now."""
        return await self._run(self._desk.load, parse_id(request.tournament_id))

    @guarded
    async def GetTournament(
        self, request: pb.GetTournamentRequest, context: Any
    ) -> pb.TournamentSummary:
        return summary(await self._load(request))

    @guarded
    async def ListRounds(
        self, request: pb.ListRoundsRequest, context: Any
    ) -> pb.ListRoundsResponse:
        tournament = await self._load(request)
        return pb.ListRoundsResponse(
            rounds=[round_message(r) for r in tournament.state.round_records]
        )

    @guarded
    async def GetPairings(
        self, request: pb.GetPairingsRequest, context: Any
    ) -> pb.Round:
        tournament = await self._load(request)
        records = tournament.state.round_records
        if not records:
            raise IllegalCommandError(
                "tournament.no-round-started",
                "no round has started: StartRound deals the first",
            )
        number = request.round or len(records)
        if not 1 <= number <= len(records):
            raise InvalidCommandError(
                f"round must be between 1 and {len(records)}",
                violations=(("round", f"1-{len(records)}, or 0 for the latest"),),
            )
        return round_message(records[number - 1])

    @guarded
    async def GetStandings(
        self, request: pb.GetStandingsRequest, context: Any
    ) -> pb.Standings:
        tid = parse_id(request.tournament_id)
        await self._results.catch_up_to(requested_position(request), context)
        return standings_message(await self._run(self._desk.load, tid))

    @guarded
    async def StreamStandings(
        self, request: pb.GetStandingsRequest, context: Any
    ) -> Any:
        """Pushed, not polled: every tournament write (the desk's saves and the
        results policy) notifies ``tournament_id:version`` on the channel the
        game streams listen to, and the stream reloads only when woken (or
        after the hub's long safety-net timeout)."""
        tid = parse_id(request.tournament_id)
        await self._results.catch_up_to(requested_position(request), context)
        wakeup = self._hub.subscribe(tid)
        try:
            seen = -1
            while True:
                wakeup.clear()
                tournament = await self._run(self._desk.load, tid)
                if tournament.version != seen:
                    seen = tournament.version
                    yield standings_message(tournament)
                if tournament.state.finished:
                    return
                await self._hub.wait(wakeup)
        finally:
            self._hub.unsubscribe(tid, wakeup)

    @guarded
    async def GetMyGames(
        self, request: pb.GetMyGamesRequest, context: Any
    ) -> pb.GetMyGamesResponse:
        tid = parse_id(request.tournament_id)
        grant = current_principal.get().tournament
        if grant is None or grant.role != "player":
            raise UnauthenticatedError("GetMyGames needs your tournament player token")
        if grant.tournament_id != tid:
            raise PermissionDeniedError("this token is for another tournament")
        rows = await self._run(self._desk.my_games, tid, grant.player_id, grant.token)
        return pb.GetMyGamesResponse(
            player_id=grant.player_id,
            games=[
                pb.MyGame(
                    round=r["round"],
                    game_id=str(r["game_id"]),
                    seats=r["seats"],
                    seat_token=r["token"],
                )
                for r in rows
            ],
        )
