"""``RatingService``: leaderboards and rating histories, read from the ratings view.

Thin: checks the request, waits for the views when asked
(``min_read_token``), runs one :mod:`projections.ratings` query and pages
the rows (:class:`services.api.read_rpc.Page`).
"""

from __future__ import annotations

from typing import Any

from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from projections import ratings
from services.api.auth import current_principal
from services.api.read_rpc import Page, ReadModels, from_row, known_game
from services.api.rpc import guarded

VIEWS = (ratings.RatingsView.name,)
"""The views these reads read: only they must have applied a caller's write."""


class RatingServicer(pb_grpc.RatingServiceServicer):
    def __init__(self, models: ReadModels) -> None:
        self._models = models

    @guarded
    async def GetLeaderboard(
        self, request: pb.GetLeaderboardRequest, context: Any
    ) -> pb.GetLeaderboardResponse:
        known_game(request.game_type)
        page = Page.asked("GetLeaderboard", request, q=request.game_type)
        rows = await self._models.read_page(
            request, context, page, ratings.leaderboard, request.game_type, views=VIEWS
        )
        return pb.GetLeaderboardResponse(
            ratings=[
                from_row(pb.PlayerRating, r, rank=page.offset + i + 1)
                for i, r in enumerate(page.shown(rows))
            ],
            next_page_token=page.next_token(rows),
        )

    @guarded
    async def GetRatingHistory(
        self, request: pb.GetRatingHistoryRequest, context: Any
    ) -> pb.GetRatingHistoryResponse:
        known_game(request.game_type)
        page = Page.asked(
            "GetRatingHistory", request, q=request.game_type, p=request.player_id
        )
        rows = await self._models.read_page(
            request,
            context,
            page,
            ratings.history,
            request.game_type,
            request.player_id,
            views=VIEWS,
        )
        admin = current_principal.get().admin
        return pb.GetRatingHistoryResponse(
            changes=[
                from_row(
                    pb.RatingChange,
                    r,
                    game_id=str(r["game_id"]),
                    log_position=r["position"] if admin else 0,
                )
                for r in page.shown(rows)
            ],
            next_page_token=page.next_token(rows),
        )
