"""Shared pieces of the pages: templates, blocking reads, charts, intervals."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from jinja2 import Template, Undefined
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from domain.contract.core import InvalidCommandError
from domain.games import all_games

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["game_types"] = lambda: [g.name for g in all_games()]


def _missing(value: Any) -> bool:
    return value is None or isinstance(value, Undefined)


templates.env.filters["pct"] = lambda v: "–" if _missing(v) else f"{100 * v:.1f}%"
templates.env.filters["count"] = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"
"""``{{ n | count("player") }}``: "1 player", "3 players"."""
templates.env.filters["num"] = lambda v, d=1: "–" if _missing(v) else f"{v:,.{d}f}"


def path_id(request: Request, name: str, what: str) -> UUID:
    """The UUID in path parameter ``name`` (a ``what``: a game, a tournament).

    :raises InvalidCommandError: for anything else, quoting it (cut short).
    """
    raw = request.path_params[name]
    try:
        return UUID(raw)
    except ValueError:
        raise InvalidCommandError(f"{raw[:64]!r} is not a {what} id") from None


def stream(
    poll: Callable[[], Awaitable[tuple[dict[str, str] | None, str | None]]],
    seconds: float,
) -> EventSourceResponse:
    """Server-Sent Events from ``poll``, called every ``seconds``.

    ``poll`` answers the event to send (``None`` when nothing changed) and why
    the stream ends (``None`` while it goes on); the last event is ``done``
    with that reason, which is what the pages' htmx listens for to stop.
    """

    async def events() -> AsyncIterator[dict[str, str]]:
        while True:
            event, ended = await poll()
            if event is not None:
                yield event
            if ended is not None:
                yield {"event": "done", "data": ended}
                return
            await asyncio.sleep(seconds)

    return EventSourceResponse(events(), ping=15)


#: What a live page sends for a new version: the event and why the stream
#: ends (``None`` while it goes on), as ``stream``'s ``poll`` answers.
Sent = tuple[dict[str, str] | None, str | None]


async def live_fragments(
    request: Request,
    what: tuple[str, UUID],
    template: str,
    seconds: float,
    look: Callable[[], Awaitable[tuple[int, Any]]],
    draw: Callable[[Template, int, Any], Awaitable[Sent]],
) -> EventSourceResponse:
    """A fragment of ``template`` streamed each time a watched version changes.

    ``what`` (a reader method and an id) is read once first so that a missing
    game or tournament answers 404 before the stream starts.  Every
    ``seconds``, ``look`` answers the version now (and what it read on the
    way, handed on to ``draw``); only a version not sent yet is drawn.
    Nothing ends between versions: an ending is an event, so it comes with a
    new version.
    """
    await read(request, *what)
    fragment = templates.get_template(template)
    shown = -1

    async def poll() -> Sent:
        nonlocal shown
        version, seen = await look()
        if version == shown:
            return None, None
        shown = version
        return await draw(fragment, version, seen)

    return stream(poll, seconds)


def reader(request: Request) -> Any:
    return request.app.state.reader


async def read(request: Request, method: str, *args: Any, **kwargs: Any) -> Any:
    """Call a blocking :class:`~services.dashboard.reader.Reader` method in a thread."""
    fn = getattr(reader(request), method)
    return await run_in_threadpool(fn, *args, **kwargs)


async def query(request: Request, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``fn(cursor, ...)`` on the views, once they pass ``?min_log_position``."""
    await caught_up(request)
    return await read(request, "query", fn, *args, **kwargs)


async def caught_up(request: Request) -> None:
    """``?min_log_position=N``: wait (once per request) for the views to pass N,
    the gRPC read services' contract; on a replica, for its replay too."""
    raw = request.query_params.get("min_log_position")
    if raw is None or getattr(request.state, "caught_up", False):
        return
    try:
        position = int(raw)
    except ValueError:
        raise HTTPException(400, "min_log_position must be an integer") from None
    await read(request, "catch_up_to", position)
    request.state.caught_up = True


def render(
    request: Request, name: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def chart(
    kind: str, labels: list[Any], datasets: list[dict[str, Any]], **extra: Any
) -> str:
    """A Chart.js config as JSON for ``<canvas data-chart=...>`` (static/dashboard.js)."""
    return json.dumps(
        {"type": kind, "labels": labels, "datasets": datasets, **extra},
        default=str,
    )


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default).

    Why Wilson and not the normal approximation: it stays inside [0, 1] and
    behaves at small counts and at rates near 0 or 1, which is what a young
    game type's seats look like.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = (
        z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    )
    return max(0.0, centre - half), min(1.0, centre + half)
