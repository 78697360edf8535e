"""``/healthz``: 200 while the dashboard's database answers, else 503.

Why a page of its own: the home page runs every headline query, too heavy to
poll every few seconds, and a 500 there can be a bug rather than an outage.
This reads one row on the same connection pool the pages use (the replica,
with ``LEDGER_READ_DATABASE_URL``); compose's health check and a load
balancer poll it.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from services.dashboard.web import read
from services.storage.datastore import answers

log = logging.getLogger(__name__)


async def healthz(request: Request) -> Response:
    try:
        await read(request, "query", answers)
    except Exception as exc:  # noqa: BLE001 - any failure to read is "not healthy"
        log.warning("dashboard health: the database does not answer: %s", exc)
        return PlainTextResponse("database unavailable\n", status_code=503)
    return PlainTextResponse("ok\n")


routes = [Route("/healthz", healthz, name="healthz")]
