"""The Starlette application: routes of every page, static files, error pages."""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError
from psycopg import InterfaceError as PgInterfaceError
from psycopg import OperationalError as PgOperationalError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
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
    play,
    ratings,
    stats,
    tournament,
)
from services.dashboard.reader import Reader, ViewsBehindError
from services.dashboard.web import HERE, render
from services.ledger.application import GameNotFoundError
from services.ledger.callers import PermissionDeniedError


async def _favicon(request: Request) -> Response:
    """``/favicon.ico``, asked for by browsers and tools that ignore the pages'
    ``<link rel="icon">``: the same icon, an SVG."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


async def _not_found(request: Request, exc: Exception) -> Response:
    return render(request, "error.html", 404, title="Not found", message=str(exc))


async def _bad_request(request: Request, exc: Exception) -> Response:
    return render(request, "error.html", 400, title="Bad request", message=str(exc))


async def _not_public(request: Request, exc: Exception) -> Response:
    """A read the disclosure policy refuses an anonymous reader (the export of
    a running game), as ``ExportGame`` refuses it: PERMISSION_DENIED."""
    return render(request, "error.html", 403, title="Not public yet", message=str(exc))


async def _unreachable(request: Request, exc: Exception) -> Response:
    """The database down (gRPC: UNAVAILABLE); its own message may name tables."""
    return render(
        request,
        "error.html",
        503,
        title="Database unavailable",
        message="the database is unreachable; retry",
    )


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
            *play.routes,
            Route("/favicon.ico", _favicon, name="favicon"),
            Mount(
                "/static", StaticFiles(directory=str(HERE / "static")), name="static"
            ),
        ],
        exception_handlers={
            GameNotFoundError: _not_found,
            UnknownGameError: _not_found,
            InvalidCommandError: _bad_request,
            PermissionDeniedError: _not_public,
            OperationalError: _unreachable,
            InterfaceError: _unreachable,
            PgOperationalError: _unreachable,
            PgInterfaceError: _unreachable,
            ViewsBehindError: _behind,
            HTTPException: _http,
        },
        # A replay page of frames carries a drawn board per frame (tens of kB
        # of SVG each, a tenth of that compressed).  Every page is public, so
        # compression reveals nothing by length; Server-Sent Events are left
        # as they are (Starlette does not compress text/event-stream).  Level
        # 6, not Starlette's 9: on a page of frames (1.15 MB) it took 11 ms
        # instead of 23 for 4% more bytes.
        middleware=[Middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)],
    )
    app.state.reader = reader
    return app
