"""Home: live and recent games per game type, headline stats, tournaments."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.games import all_games
from projections import stats_queries
from services.dashboard.web import query, render
from services.storage import tournament_store


def _home(curs: Any) -> dict[str, Any]:
    heads = stats_queries.headlines(curs)
    first = stats_queries.first_player_rates(curs)
    types = [
        {
            "name": game.name,
            "head": heads.get(game.name, {}),
            "first_rate": first.get(game.name),
            "live": stats_queries.newest_games(curs, game.name, finished=False),
            "recent": stats_queries.newest_games(curs, game.name, finished=True),
        }
        for game in all_games()
    ]
    return {"types": types, "tournaments": tournament_store.newest(curs)}


async def home(request: Request) -> Response:
    return render(request, "home.html", **await query(request, _home))


routes = [Route("/", home, name="home")]
