"""A running game's clocks, ticking on its page by Server-Sent Events.

Why SSE and server-rendered: the remaining time is the ledger's to say (its
own clock, its own timestamps), so the page shows what the server computes,
once a second, as an HTML fragment htmx swaps in; no client code keeps time.
The stream ends (``done``) when the game does.  A game watched with a
spectator delay shows no live clock: its clocks at the delayed version,
read now, would tell when the hidden moves were made.
"""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.dashboard.clock_rows import clock_rows
from services.dashboard.games import game_id
from services.dashboard.web import read, reader, stream, templates

TICK_SECONDS = 1.0


def now_of(request: Request) -> datetime:
    clock = getattr(reader(request).ledger, "clock", None)
    return clock() if clock is not None else datetime.now(UTC)


async def live(request: Request) -> Response:
    """``clock`` events with the clocks fragment; ``done`` once the game ended."""
    gid = game_id(request)
    await read(request, "game", gid)  # 404 before the stream starts
    fragment = templates.get_template("_clocks.html")

    async def poll() -> tuple[dict[str, str] | None, str | None]:
        game = await read(request, "game", gid)
        if game.spectator_delay and not game.is_over:
            return None, "delayed"
        at = now_of(request) if not game.is_over else game.modified_on
        clocks = fragment.render(clocks=clock_rows(game, at), ended=game.is_over)
        return {"event": "clock", "data": clocks}, "ended" if game.is_over else None

    return stream(poll, TICK_SECONDS)


routes = [Route("/games/{game_id}/clock", live, name="game_clock")]
