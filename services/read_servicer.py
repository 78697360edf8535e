"""ReplayService and RatingService: thin adapters over the event store and the views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import grpc

from domain.core import InvalidCommandError
from domain.export import export_lines
from ledger.v1 import game_service_pb2 as game_pb
from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from projections import ratings
from projections.runner import ViewRunner, wait_for_position
from services import page_tokens, presenters
from services.auth import current_principal
from services.disclosure import SpectatorWindow
from services.errors import PermissionDeniedError
from services.rpc import Blocking, guarded, guarded_stream, parse_game_id


def _page_size(value: int, default: int, maximum: int) -> int:
    size = value or default
    if not 1 <= size <= maximum:
        raise InvalidCommandError(f"page_size must be between 1 and {maximum}")
    return size


class ReplayServicer(pb_grpc.ReplayServiceServicer, Blocking):
    def __init__(self, ledger: Any, executor: Any) -> None:
        self._ledger = ledger
        self._executor = executor
        self._window = SpectatorWindow(ledger)

    async def _frames(
        self, game_id: Any, after: int, limit: int
    ) -> tuple[list[pb.Frame], bool]:
        principal = current_principal.get()
        head = await self._run(self._ledger.load, game_id)
        sight = await self._run(self._window.disclose, principal, head)
        limit = max(0, min(limit, sight.upto - after))  # a delayed spectator's head
        frames = (
            await self._run(self._ledger.frames, game_id, after, limit) if limit else []
        )
        return [
            pb.Frame(
                event=presenters.event_message(
                    game, event, sight.viewer, show_hashes=sight.show_hashes
                ),
                view=presenters.view(game, sight.viewer),
            )
            for event, game in frames
        ], sight.upto

    @guarded
    async def ListFrames(
        self, request: pb.ListFramesRequest, context: Any
    ) -> pb.ListFramesResponse:
        game_id = parse_game_id(request.game_id)
        if request.after_version < 0:
            raise InvalidCommandError("after_version must be >= 0")
        size = _page_size(request.page_size, 50, 500)
        frames, head = await self._frames(game_id, request.after_version, size)
        last = frames[-1].event.version if frames else request.after_version
        return pb.ListFramesResponse(
            frames=frames, next_after_version=last if last < head else 0
        )

    @guarded_stream
    async def StreamReplay(self, request: pb.StreamReplayRequest, context: Any) -> Any:
        game_id = parse_game_id(request.game_id)
        after = request.after_version
        while True:
            frames, head = await self._frames(game_id, after, 200)
            for frame in frames:
                yield frame
                after = frame.event.version
            if not frames or after >= head:
                return

    @guarded_stream
    async def ExportGame(self, request: pb.ExportGameRequest, context: Any) -> Any:
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        head = await self._run(self._ledger.load, game_id)
        sight = await self._run(self._window.disclose, principal, head)
        if not sight.viewer.admin:
            raise PermissionDeniedError(
                "a running game can only be exported by the admin"
            )
        rows = await self._run(self._ledger.read_records, game_id)
        receipts = await self._run(self._ledger.stored_receipts, game_id)
        key = self._ledger.signer.public_key
        for line in export_lines(str(game_id), rows, receipts, key):
            yield pb.ExportChunk(line=line)


class ReadModels(Blocking):
    """The views a read RPC may wait on for read-your-writes."""

    def __init__(
        self,
        datastore: Any,
        runners: Sequence[ViewRunner],
        executor: Any,
        primary: ViewRunner | None = None,
    ) -> None:
        self.datastore = datastore
        self.runners = list(runners)
        self._executor = executor
        self._primary = primary
        """A runner on the primary: the log's head is read there, since a
        replica's lags behind positions this server has already returned."""

    async def catch_up_to(self, position: int, context: Any) -> None:
        """Wait until every view has applied ``position`` (read-your-writes).

        A position past the log's head was never returned by this server;
        waiting for it would hold the call until its deadline for nothing.

        :raises InvalidCommandError: for a position past the log's head.
        """
        if position <= 0:
            return
        head_of = self._primary or (self.runners[0] if self.runners else None)
        if head_of is not None and position > await self._run(_log_head, head_of):
            raise InvalidCommandError(
                "min_log_position is past the log's head; pass a log_position"
                " this server returned"
            )
        remaining = context.time_remaining()
        timeout = 10.0 if remaining is None else max(0.0, remaining - 0.05)
        if not await self._run(wait_for_position, self.runners, position, timeout):
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"views have not reached log position {position} yet",
            )

    async def query(self, fn: Any, *args: Any) -> Any:
        def run() -> Any:
            with self.datastore.transaction(commit=False) as curs:
                return fn(curs, *args)

        return await self._run(run)


def _log_head(runner: ViewRunner) -> int:
    return int(runner.status().head)


class RatingServicer(pb_grpc.RatingServiceServicer):
    def __init__(self, models: ReadModels) -> None:
        self._models = models

    @guarded
    async def GetLeaderboard(
        self, request: pb.GetLeaderboardRequest, context: Any
    ) -> pb.GetLeaderboardResponse:
        _known_game(request.game_type)
        size = _page_size(request.page_size, 50, 500)
        query = {"q": request.game_type}
        offset = page_tokens.offset("GetLeaderboard", request.page_token, **query)
        await self._models.catch_up_to(request.min_log_position, context)
        rows = await self._models.query(
            ratings.leaderboard, request.game_type, size + 1, offset
        )
        return pb.GetLeaderboardResponse(
            ratings=[
                pb.PlayerRating(
                    player_id=r["player_id"],
                    mu=r["mu"],
                    sigma=r["sigma"],
                    ordinal=r["ordinal"],
                    games=r["games"],
                    rank=offset + i + 1,
                )
                for i, r in enumerate(rows[:size])
            ],
            next_page_token=page_tokens.next_offset(
                "GetLeaderboard", offset + size, **query
            )
            if len(rows) > size
            else "",
        )

    @guarded
    async def GetRatingHistory(
        self, request: pb.GetRatingHistoryRequest, context: Any
    ) -> pb.GetRatingHistoryResponse:
        _known_game(request.game_type)
        size = _page_size(request.page_size, 50, 500)
        query = {"q": request.game_type, "p": request.player_id}
        offset = page_tokens.offset("GetRatingHistory", request.page_token, **query)
        await self._models.catch_up_to(request.min_log_position, context)
        rows = await self._models.query(
            ratings.history, request.game_type, request.player_id, size + 1, offset
        )
        return pb.GetRatingHistoryResponse(
            changes=[
                pb.RatingChange(
                    game_id=str(r["game_id"]),
                    event_version=r["event_version"],
                    log_position=r["position"],
                    rank=r["rank"],
                    mu_before=r["mu_before"],
                    sigma_before=r["sigma_before"],
                    mu=r["mu"],
                    sigma=r["sigma"],
                    ordinal=r["ordinal"],
                )
                for r in rows[:size]
            ],
            next_page_token=page_tokens.next_offset(
                "GetRatingHistory", offset + size, **query
            )
            if len(rows) > size
            else "",
        )


def _distribution(d: dict[str, Any]) -> Any:
    from ledger.v1 import read_service_pb2 as rpb

    return rpb.Distribution(
        count=d["count"] or 0,
        min=d["min"] or 0,
        max=d["max"] or 0,
        mean=d["mean"] or 0,
        median=d["median"] or 0,
        p90=d["p90"] or 0,
        histogram=[
            rpb.Bucket(lo=b["lo"], hi=b["hi"], count=b["count"]) for b in d["histogram"]
        ],
    )


def _rate(r: dict[str, Any], value: str = "") -> Any:
    return pb.WinRate(
        players=r.get("players") or 0,
        seat=r.get("seat") or 0,
        value=value or str(r.get("value", "")),
        games=r["games"],
        wins=r["wins"],
        win_rate=r["win_rate"] or 0.0,
    )


class StatsServicer(pb_grpc.StatsServiceServicer):
    def __init__(self, models: ReadModels) -> None:
        self._models = models

    @guarded
    async def GetGameTypeStats(
        self, request: pb.GetGameTypeStatsRequest, context: Any
    ) -> pb.GameTypeStats:
        from projections import stats_queries as q

        _known_game(request.game_type)
        await self._models.catch_up_to(request.min_log_position, context)
        players = request.players or None

        def read(curs: Any) -> pb.GameTypeStats:
            counts = q.games_count(curs, request.game_type)
            return pb.GameTypeStats(
                game_type=request.game_type,
                started=counts[0]["started"] if counts else 0,
                finished=counts[0]["finished"] if counts else 0,
                rounds=_distribution(
                    q.length_distribution(
                        curs, request.game_type, "rounds", players=players
                    )
                ),
                moves=_distribution(
                    q.length_distribution(
                        curs, request.game_type, "moves", players=players
                    )
                ),
                seconds=_distribution(
                    q.length_distribution(
                        curs, request.game_type, "seconds", players=players
                    )
                ),
                scores=_distribution(
                    q.score_distribution(curs, request.game_type, players=players)
                ),
                by_seat=[
                    _rate(r)
                    for r in q.win_rate_by_seat(curs, request.game_type)
                    if players is None or r["players"] == players
                ],
                by_first_player=[
                    _rate(r, "first" if r["first"] else "other")
                    for r in q.win_rate_by_first_player(curs, request.game_type)
                    if players is None or r["players"] == players
                ],
                facet_keys=sorted(
                    {k["key"] for k in q.facet_keys(curs, request.game_type)}
                ),
            )

        return await self._models.query(read)

    @guarded
    async def GetFacetStats(
        self, request: pb.GetFacetStatsRequest, context: Any
    ) -> pb.FacetStats:
        from projections import stats_queries as q

        _known_game(request.game_type)
        if not request.key:
            raise InvalidCommandError("key is required (see GameTypeStats.facet_keys)")
        query = {"q": request.game_type, "k": request.key, "n": request.players}
        size, offset = (
            _page_size(request.page_size, 100, 1000),
            page_tokens.offset("GetFacetStats", request.page_token, **query),
        )
        await self._models.catch_up_to(request.min_log_position, context)

        def read(curs: Any) -> pb.FacetStats:
            rates = q.win_rate_by_facet(
                curs, request.game_type, request.key, request.players or None
            )
            freq = q.facet_frequency(
                curs, request.game_type, request.key, limit=size + 1, offset=offset
            )
            return pb.FacetStats(
                key=request.key,
                win_rates=[_rate(r) for r in rates],
                frequency=[
                    pb.FacetCount(
                        value=str(r["value"]), count=r["count"], share=r["share"] or 0.0
                    )
                    for r in freq[:size]
                ],
                next_page_token=page_tokens.next_offset(
                    "GetFacetStats", offset + size, **query
                )
                if len(freq) > size
                else "",
            )

        return await self._models.query(read)

    @guarded
    async def GetPlayerHistory(
        self, request: pb.GetPlayerHistoryRequest, context: Any
    ) -> pb.PlayerHistory:
        from projections import stats_queries as q

        if not request.player_id:
            raise InvalidCommandError("player_id is required")
        if request.game_type:
            _known_game(request.game_type)
        query = {"p": request.player_id, "q": request.game_type}
        size, offset = (
            _page_size(request.page_size, 50, 500),
            page_tokens.offset("GetPlayerHistory", request.page_token, **query),
        )
        await self._models.catch_up_to(request.min_log_position, context)
        rows = await self._models.query(
            q.player_history,
            request.player_id,
            request.game_type or None,
            size + 1,
            offset,
        )
        return pb.PlayerHistory(
            games=[
                pb.PlayerGame(
                    game_id=str(r["game_id"]),
                    game_type=r["game_type"],
                    seat=r["seat"],
                    rank=r["rank"] or 0,
                    score=r["score"] or 0,
                    won=bool(r["won"]),
                    players=r["players"],
                    ended_at=r["ended_at"].isoformat() if r["ended_at"] else "",
                    rounds=r["rounds"] or 0,
                    moves=r["moves"] or 0,
                    termination=r["termination"] or "",
                    termination_kind=presenters.kind(
                        game_pb.Termination, r["termination"] or ""
                    ),
                )
                for r in rows[:size]
            ],
            next_page_token=page_tokens.next_offset(
                "GetPlayerHistory", offset + size, **query
            )
            if len(rows) > size
            else "",
        )

    @guarded
    async def GetFairness(
        self, request: pb.GetFairnessRequest, context: Any
    ) -> pb.Fairness:
        from projections import fairness as f

        _known_game(request.game_type)
        await self._models.catch_up_to(request.min_log_position, context)

        def read(curs: Any) -> list[dict[str, Any]]:
            return f.fairness(curs, request.game_type) + f.first_player_fairness(
                curs, request.game_type
            )

        fits = await self._models.query(read)
        return pb.Fairness(
            game_type=request.game_type,
            fits=[
                pb.DistributionFit(
                    distribution=d["distribution"],
                    outcomes=d["outcomes"],
                    observed=d["observed"],
                    total=d["total"],
                    expected=d["expected"],
                    statistic=d["statistic"],
                    dof=d["dof"],
                    p_value=d["p_value"],
                    kind=d["kind"],
                )
                for d in fits
            ],
        )


def _known_game(name: str) -> None:
    from domain.games import find_game

    find_game(name)
