"""The Starlette application: routes of every page, static files, error pages."""

from __future__ import annotations

from typing import Any

import grpc
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from domain.contract.core import InvalidCommandError
from domain.games import UnknownGameError
from services.dashboard import (
    clocks,
    games,
    health,
    home,
    live_board,
    ratings,
    stats,
    tournament,
)
from services.dashboard.reader import Reader, ReplayRefusedError, ViewsBehindError
from services.dashboard.web import HERE, render
from services.ledger.application import GameNotFoundError


async def _favicon(request: Request) -> Response:
    """``/favicon.ico``, asked for by browsers and tools that ignore the pages'
    ``<link rel="icon">``: the same icon, an SVG."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


async def _not_found(request: Request, exc: Exception) -> Response:
    return render(request, "error.html", 404, title="Not found", message=str(exc))


async def _bad_request(request: Request, exc: Exception) -> Response:
    return render(request, "error.html", 400, title="Bad request", message=str(exc))


HTTP_FOR = {
    grpc.StatusCode.NOT_FOUND: (404, "Not found"),
    grpc.StatusCode.INVALID_ARGUMENT: (400, "Bad request"),
    grpc.StatusCode.PERMISSION_DENIED: (403, "Not public yet"),
    grpc.StatusCode.FAILED_PRECONDITION: (409, "Not available"),
    grpc.StatusCode.UNAVAILABLE: (503, "Database unavailable"),
}


async def _refused(request: Request, exc: Any) -> Response:
    """A ReplayService refusal, as the HTTP status that means the same."""
    status, title = HTTP_FOR.get(exc.code, (500, "Error"))
    return render(request, "error.html", status, title=title, message=str(exc))


async def _behind(request: Request, exc: Exception) -> Response:
    """A ``min_log_position`` the views did not reach in time (gRPC: DEADLINE_EXCEEDED)."""
    return render(request, "error.html", 504, title="Not there yet", message=str(exc))


async def _http(request: Request, exc: Any) -> Response:
    return render(
        request, "error.html", exc.status_code, title="Error", message=exc.detail
    )


def create_app(reader: Reader) -> Starlette:
    """The dashboard over ``reader`` (see :mod:`services.dashboard.reader`)."""
    app = Starlette(
        routes=[
            *health.routes,
            *home.routes,
            *tournament.routes,
            *ratings.routes,
            *stats.routes,
            *games.routes,
            *clocks.routes,
            *live_board.routes,
            Route("/favicon.ico", _favicon, name="favicon"),
            Mount(
                "/static", StaticFiles(directory=str(HERE / "static")), name="static"
            ),
        ],
        exception_handlers={
            GameNotFoundError: _not_found,
            UnknownGameError: _not_found,
            InvalidCommandError: _bad_request,
            ReplayRefusedError: _refused,
            ViewsBehindError: _behind,
            HTTPException: _http,
        },
    )
    app.state.reader = reader
    return app
