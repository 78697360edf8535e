"""Tournament: standings (points, Buchholz, head-to-head) pushed by SSE, and rounds.

Why Server-Sent Events: standings change only when a result is recorded, and
flow one way, server to browser; an ``EventSource`` reconnects by itself and
needs no client code beyond htmx's SSE extension.  The server side checks the
tournament's newest event version (one indexed ``max``) twice a second, as
``StreamStandings`` does, and renders and sends the fragment only on a change.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.contract.core import InvalidCommandError
from domain.tournament.standings import TIE_BREAKS, head_to_head
from services.dashboard.web import query, read, render, templates
from services.storage import tournament_store

POLL_SECONDS = 0.5


def tournament_id(request: Request) -> UUID:
    raw = request.path_params["tournament_id"]
    try:
        return UUID(raw)
    except ValueError:
        raise InvalidCommandError(f"{raw[:64]!r} is not a tournament id") from None


def context(tournament: Any) -> dict[str, Any]:
    """What the standings fragment shows (the same rows as ``GetStandings``)."""
    state = tournament.state
    rows = list(tournament.standings())
    results = state.results()
    order = [r.player_id for r in rows]
    return {
        "t": tournament,
        "state": state,
        "rows": rows,
        "tie_breaks": TIE_BREAKS,
        "h2h": {
            (a, b): head_to_head(a, b, results) for a in order for b in order if a != b
        },
        "order": order,
        "rounds": state.round_records,
    }


async def page(request: Request) -> Response:
    tid = tournament_id(request)
    tournament = await read(request, "tournament", tid)
    return render(request, "tournament.html", **context(tournament))


async def live(request: Request) -> Response:
    """``standings`` events with the fragment's HTML; ``done`` once it is finished."""
    tid = tournament_id(request)
    await read(request, "tournament", tid)  # 404 before the stream starts
    fragment = templates.get_template("_standings.html")

    async def events() -> AsyncIterator[dict[str, str]]:
        seen = -1
        while True:
            version = await query(request, tournament_store.version, tid)
            if version != seen:
                seen = version
                tournament = await read(request, "tournament", tid)
                yield {
                    "event": "standings",
                    "data": fragment.render(**context(tournament)),
                }
                if tournament.state.finished:
                    yield {"event": "done", "data": "finished"}
                    return
            await asyncio.sleep(POLL_SECONDS)

    return EventSourceResponse(events(), ping=15)


routes = [
    Route("/tournaments/{tournament_id}", page, name="tournament"),
    Route("/tournaments/{tournament_id}/live", live, name="tournament_live"),
]
