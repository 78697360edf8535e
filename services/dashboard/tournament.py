"""Tournament: standings (points, Buchholz, head-to-head) pushed by SSE, and rounds.

With automatic rounds, the fragment also says when the next round starts;
``dashboard.js`` counts it down each second in the browser (no request), and
the round's start is itself a change that pushes a fresh fragment.

Why Server-Sent Events: standings change only when a result is recorded, and
flow one way, server to browser; an ``EventSource`` reconnects by itself and
needs no client code beyond htmx's SSE extension.  The server side checks the
tournament's newest event version (one indexed ``max``) twice a second, as
``StreamStandings`` does, and renders and sends the fragment only on a change.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from jinja2 import Template
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.tournament.standings import TIE_BREAKS, head_to_head
from services.dashboard.web import (
    Sent,
    live_fragments,
    path_id,
    query,
    read,
    render,
)
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
        "next_round_at": tournament.next_round_at,
        "automatic": tournament.automatic_rounds,
    }


async def page(request: Request) -> Response:
    tid = tournament_id(request)
    tournament = await read(request, "tournament", tid)
    return render(request, "tournament.html", **context(tournament))


async def live(request: Request) -> Response:
    """``standings`` events with the fragment's HTML; ``done`` once it is finished."""
    tid = tournament_id(request)

    async def look() -> tuple[int, None]:
        return await query(request, tournament_store.version, tid), None

    async def draw(fragment: Template, version: int, _: None) -> Sent:
        tournament = await read(request, "tournament", tid)
        event = {"event": "standings", "data": fragment.render(**context(tournament))}
        return event, "finished" if tournament.state.finished else None

    return await live_fragments(
        request, ("tournament", tid), "_standings.html", POLL_SECONDS, look, draw
    )


routes = [
    Route("/tournaments/{tournament_id}", page, name="tournament"),
    Route("/tournaments/{tournament_id}/live", live, name="tournament_live"),
]
