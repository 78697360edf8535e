"""Who is playing in this browser, and the checks every form of the play pages passes.

* The credential lives in an HttpOnly, SameSite=Strict cookie scoped to one
  game's (or one tournament's) pages, ``Secure`` over HTTPS: scripts cannot
  read it, other sites' pages cannot send it, and it never appears in a
  page, a URL or a log.  It is the seat token (or a tournament player
  token) itself, resolved on every request exactly as the gRPC edge
  resolves a bearer token (``GameLedger.grant_for_token``,
  ``TournamentDesk.grant_for_token``), so the service layer's rules decide
  what it may do: nothing here grants more than the token would over gRPC.
* Every form carries a CSRF token, an HMAC of the credential under a key
  of this process (it says nothing about the credential), and a POST is
  refused unless its ``Origin`` (else ``Referer``) is this site.  With
  SameSite=Strict, that is three locks on one door.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any
from urllib.parse import parse_qsl, urlsplit
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from services.ledger.callers import Principal

#: How long a browser keeps a seat (a tournament lasts days; a link is single-use).
COOKIE_SECONDS = 14 * 24 * 3600
_KEY = secrets.token_bytes(32)
"""Signs CSRF tokens; per process, so a restart asks for a reload, never a new link."""


def cookie_name(kind: str, subject: UUID) -> str:
    return f"ledger_{kind}_{subject.hex}"


def cookie_path(kind: str, subject: UUID) -> str:
    return f"/play/{subject}" if kind == "seat" else f"/play/tournaments/{subject}"


def keep(
    response: Response, request: Request, kind: str, subject: UUID, credential: str
) -> None:
    """Set the cookie that holds ``credential`` for ``subject``'s pages."""
    response.set_cookie(
        cookie_name(kind, subject),
        credential,
        max_age=COOKIE_SECONDS,
        path=cookie_path(kind, subject),
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )


def credential(request: Request, kind: str, subject: UUID) -> str | None:
    return request.cookies.get(cookie_name(kind, subject)) or None


async def seat_principal(request: Request, game_id: UUID) -> Principal | None:
    """The seat this browser holds in ``game_id``, as gRPC would resolve its
    token; ``None`` without a cookie or with one the ledger does not know."""
    token = credential(request, "seat", game_id)
    if token is None:
        return None
    ledger = request.app.state.reader.ledger
    grant = await run_in_threadpool(ledger.grant_for_token, token)
    if grant is None or grant.game_id != game_id:
        return None
    return Principal(grant=grant)


async def player_grant(request: Request, tournament_id: UUID) -> tuple[Any, str] | None:
    """The tournament player grant this browser holds, with its token."""
    token = credential(request, "player", tournament_id)
    if token is None:
        return None
    desk = request.app.state.reader.desk
    grant = await run_in_threadpool(desk.grant_for_token, token)
    if grant is None or grant.role != "player" or grant.tournament_id != tournament_id:
        return None
    return grant, token


#: The largest form a play page sends (a CSRF token, a version, a move).
FORM_BYTES = 4096


async def form_of(request: Request) -> dict[str, str]:
    """The URL-encoded form of a POST (the only kind the play pages send).

    :raises HTTPException: 413 for a body no play page sends.
    """
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_BYTES:
            raise HTTPException(413, "this form is too large")
    pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    return dict(pairs)


def csrf_token(credential: str) -> str:
    """The form token of a browser holding ``credential``."""
    return hmac.new(_KEY, b"csrf:" + credential.encode(), hashlib.sha256).hexdigest()


def check_form(request: Request, form: Any, credential: str) -> None:
    """Refuse a cross-site POST: a foreign ``Origin`` or a wrong CSRF token.

    :raises HTTPException: 403.
    """
    check_origin(request)
    sent = str(form.get("csrf", ""))
    if not hmac.compare_digest(sent, csrf_token(credential)):
        raise HTTPException(
            403, "this form has expired or is not this site's: reload the page"
        )


def check_origin(request: Request) -> None:
    """:raises HTTPException: 403 unless the request comes from this site's pages."""
    origin = request.headers.get("origin") or request.headers.get("referer")
    host = request.headers.get("host", "")
    if not origin or origin == "null" or urlsplit(origin).netloc != host:
        raise HTTPException(403, "a request from another site is refused")
