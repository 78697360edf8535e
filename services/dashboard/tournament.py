"""Tournament: standings (points, Buchholz, head-to-head) pushed by SSE, and rounds.

Why Server-Sent Events: standings change only when a result is recorded, and
flow one way, server to browser; an ``EventSource`` reconnects by itself and
needs no client code beyond htmx's SSE extension.  The server side checks the
tournament's newest event version (one indexed ``max``) twice a second, as
``StreamStandings`` does, and renders and sends the fragment only on a change.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.tournament.standings import TIE_BREAKS, head_to_head
from services.dashboard.web import path_id, query, read, render, stream, templates
from services.storage import tournament_store

POLL_SECONDS = 0.5


def tournament_id(request: Request) -> UUID:
    return path_id(request, "tournament_id", "tournament")


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

    seen = -1

    async def poll() -> tuple[dict[str, str] | None, str | None]:
        nonlocal seen
        version = await query(request, tournament_store.version, tid)
        if version == seen:
            return None, None
        seen = version
        tournament = await read(request, "tournament", tid)
        event = {"event": "standings", "data": fragment.render(**context(tournament))}
        return event, "finished" if tournament.state.finished else None

    return stream(poll, POLL_SECONDS)


routes = [
    Route("/tournaments/{tournament_id}", page, name="tournament"),
    Route("/tournaments/{tournament_id}/live", live, name="tournament_live"),
]
