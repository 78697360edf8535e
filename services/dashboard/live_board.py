"""A running game's board on its page, redrawn by Server-Sent Events as it moves.

Why the last frame of ``ListFrames`` and not the game's state: the frame is
what an anonymous caller may read (the spectator's view, at the spectator's
delay), so the live board can show no more than the replay does; it is
drawn and worded as the replay's frames are
(:mod:`services.dashboard.frame_words`).  The server checks the game's
version once a second, beside the clocks' tick, and sends a fragment only
when it changed; ``done`` closes the stream when the game ends.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Template
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.dashboard.frame_words import readable
from services.dashboard.games import game_id
from services.dashboard.web import Sent, live_fragments, read, reader

TICK_SECONDS = 1.0


async def live(request: Request) -> Response:
    """``board`` events with the newest frame's board and sentence; ``done`` at the end."""
    gid = game_id(request)

    async def look() -> tuple[int, Any]:
        game = await read(request, "game", gid)
        return game.version, game

    async def draw(fragment: Template, version: int, game: Any) -> Sent:
        response = await reader(request).frames(gid, max(version - 1, 0), 1)
        page = await run_in_threadpool(readable, game, response)
        frame = page["frames"][-1] if page.get("frames") else {}
        board = fragment.render(
            version=version,
            sentence=frame.get("sentence", ""),
            board=frame.get("board", ""),
            ended=game.is_over,
        )
        return {"event": "board", "data": board}, "ended" if game.is_over else None

    return await live_fragments(
        request, ("game", gid), "_live_board.html", TICK_SECONDS, look, draw
    )


routes = [Route("/games/{game_id}/board", live, name="game_board")]
