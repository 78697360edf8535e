"""Leaderboards per game type and a player's page (rating chart, recent games)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.games import all_games, find_game
from projections import ratings, stats_queries
from services.dashboard.web import chart, query, render

BOARD = 100
HISTORY = 500
"""Rating changes charted on a player's page (the newest; the table lists the last 50)."""
TABLE = 50


async def leaderboards(request: Request) -> Response:
    def read(curs: Any) -> list[dict[str, Any]]:
        return [
            {"name": g.name, "rows": ratings.leaderboard(curs, g.name, 10, 0)}
            for g in all_games()
        ]

    return render(request, "leaderboards.html", boards=await query(request, read))


async def leaderboard(request: Request) -> Response:
    game_type = find_game(request.path_params["game_type"]).name
    rows = await query(request, ratings.leaderboard, game_type, BOARD, 0)
    return render(request, "leaderboard.html", game_type=game_type, rows=rows)


async def player(request: Request) -> Response:
    game_type = find_game(request.path_params["game_type"]).name
    player_id = request.path_params["player_id"]

    def read(curs: Any) -> dict[str, Any]:
        return {
            "history": ratings.history(
                curs, game_type, player_id, HISTORY, newest=True
            ),
            "recent": stats_queries.recent_player_games(curs, player_id, game_type),
        }

    data = await query(request, read)
    history = data["history"]
    config = chart(
        "line",
        [str(i + 1) for i in range(len(history))],
        [
            {
                "label": "ordinal (mu - 3 sigma)",
                "data": [round(h["ordinal"], 3) for h in history],
            },
            {"label": "mu", "data": [round(h["mu"], 3) for h in history]},
        ],
        links=[f"/games/{h['game_id']}?v={h['event_version']}" for h in history],
        x_title="rated game",
    )
    return render(
        request,
        "player.html",
        game_type=game_type,
        player_id=player_id,
        chart=config,
        table=list(enumerate(history, start=1))[-TABLE:][::-1],
        **data,
    )


routes = [
    Route("/leaderboards", leaderboards, name="leaderboards"),
    Route("/leaderboards/{game_type}", leaderboard, name="leaderboard"),
    Route("/players/{game_type}/{player_id:path}", player, name="player"),
]
