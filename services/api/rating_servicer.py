"""``RatingService``: leaderboards and rating histories, read from the ratings view.

Thin: checks the request, waits for the views when asked
(``min_log_position``), runs one :mod:`projections.ratings` query and pages
the rows with :mod:`services.api.page_tokens`.
"""

from __future__ import annotations

from typing import Any

from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from projections import ratings
from services.api import page_tokens
from services.api.read_rpc import ReadModels, known_game, parse_page_size
from services.api.rpc import guarded


class RatingServicer(pb_grpc.RatingServiceServicer):
    def __init__(self, models: ReadModels) -> None:
        self._models = models

    @guarded
    async def GetLeaderboard(
        self, request: pb.GetLeaderboardRequest, context: Any
    ) -> pb.GetLeaderboardResponse:
        known_game(request.game_type)
        size = parse_page_size(request.page_size, 50, 500)
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
            next_page_token=page_tokens.after_page(
                "GetLeaderboard", offset, size, len(rows), **query
            ),
        )

    @guarded
    async def GetRatingHistory(
        self, request: pb.GetRatingHistoryRequest, context: Any
    ) -> pb.GetRatingHistoryResponse:
        known_game(request.game_type)
        size = parse_page_size(request.page_size, 50, 500)
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
            next_page_token=page_tokens.after_page(
                "GetRatingHistory", offset, size, len(rows), **query
            ),
        )
