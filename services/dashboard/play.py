"""Playing a game in the browser: a seat's page, its moves, draws and resignation.

The page calls the service layer exactly as ``GameService`` does, with the
seat's token as the caller (:mod:`services.dashboard.play_guard`): the legal
moves, the board and the log come through the one read path
(:class:`~services.ledger.reading.game_reads.GameReads`) for that caller,
so a seat sees its own view and nothing more; a move is
``GameLedger.submit_move`` with the seat :func:`acting_seat` allows, an
``expected_version`` (the version the page showed) and a ``command_id``
minted with the page, so a double click or a resent form is the same move
once.  Draws and resignation are the same ``GameLedger`` calls as
``OfferDraw``/``AcceptDraw``/``DeclineDraw``/``Resign``, whose referee says
where they are allowed.

The page is server-rendered and works with no script: each move is a submit
button (keyboard: Tab, Enter).  With scripts, htmx's SSE extension swaps in
the clocks every second and the whole play panel whenever the game's
version changes (the other seats' moves as they happen), and ``play.js``
narrows the move list to the moves that select a clicked board target.
"""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from domain.contract.core import RuleError, Seat, Viewer
from domain.words.narration import concluded_sentence
from domain.words.sentences import seat_name
from services.dashboard import play_guard
from services.dashboard.clock_rows import clock_rows
from services.dashboard.clocks import now_of
from services.dashboard.frame_words import names_of
from services.dashboard.games import game_id
from services.dashboard.play_passes import Pass, PassBook
from services.dashboard.play_words import board_targets, moves_listed, seat_board
from services.dashboard.web import render, stream, templates
from services.ledger.application import (
    CommandIdReusedError,
    ConcurrencyConflictError,
)
from services.ledger.callers import (
    PermissionDeniedError,
    Principal,
    Refusal,
    acting_seat,
)
from services.proto import game_messages
from services.proto.event_words import sentence

#: Sentences of the log a page shows (the newest last).
LOG_LINES = 30
#: Moves listed at once; more are narrowed by a board target or a search.
MOVES_SHOWN = 300
#: How often a play page's stream looks for a new version (a cached read):
#: a seat sees the others' moves within this; the clocks tick every
#: ``CLOCK_EVERY`` looks (one second).
LOOK_SECONDS = 0.25
CLOCK_EVERY = 4

#: Refusals a player's click can meet: shown on the page, nothing stored.
REFUSED = (RuleError, Refusal, CommandIdReusedError, ConcurrencyConflictError)


def passes(request: Request) -> PassBook:
    book: PassBook | None = getattr(request.app.state, "passes", None)
    if book is None:
        book = request.app.state.passes = PassBook()
    return book


# ------------------------------------------------------------ links


async def mint(request: Request) -> Response:
    """``POST /play/links`` with ``Authorization: Bearer <token>`` and
    ``{"game_id": ...}`` (a seat token) or ``{"tournament_id": ...}`` (a
    tournament player token): a one-time link's path.  Nothing but a bearer
    header opens it, so no other site's page can mint links with a
    browser's cookies."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return JSONResponse({"error": "needs Authorization: Bearer <token>"}, 401)
    try:
        body = await request.json()
        if "game_id" in body:
            kind, subject = "seat", UUID(str(body["game_id"]))
        else:
            kind, subject = "player", UUID(str(body["tournament_id"]))
    except (ValueError, KeyError, TypeError):
        return JSONResponse(
            {"error": 'send {"game_id": ...} or {"tournament_id": ...}'}, 400
        )
    reader = request.app.state.reader
    if kind == "seat":
        grant = await run_in_threadpool(reader.ledger.grant_for_token, token)
        ok = grant is not None and grant.game_id == subject
    else:
        grant = await run_in_threadpool(reader.desk.grant_for_token, token)
        ok = (
            grant is not None
            and grant.role == "player"
            and grant.tournament_id == subject
        )
    if not ok:
        return JSONResponse({"error": "this token does not hold that seat"}, 403)
    code = passes(request).mint(Pass(kind, token, subject))
    return JSONResponse({"path": f"/play/enter/{code}"}, headers=_private())


async def enter(request: Request) -> Response:
    """``GET /play/enter/<code>``: spend the code, keep the credential in a
    cookie, and leave this URL for the clean one.

    Why a page that moves on (``<meta refresh>``) and not a 303: a SameSite
    =Strict cookie is not sent on a navigation another site started, and a
    redirect continues that navigation; a page of ours that moves on starts
    a same-site one, so the first view of the game already has its seat.
    """
    found = passes(request).redeem(request.path_params["code"])
    if found is None:
        return render(
            request,
            "error.html",
            410,
            title="This link has been used",
            message="a play link works once: run `ledger tournament my-games`"
            " for a fresh one (this browser keeps the seats it already opened)",
        )
    target = (
        f"/play/{found.subject}"
        if found.kind == "seat"
        else f"/play/tournaments/{found.subject}"
    )
    response = render(request, "play_enter.html", target=target)
    play_guard.keep(response, request, found.kind, found.subject, found.credential)
    response.headers.update(_private())
    return response


def _private() -> dict[str, str]:
    return {"Cache-Control": "no-store", "Referrer-Policy": "same-origin"}


# ------------------------------------------------------------ the page


async def _seat(request: Request, gid: UUID) -> Principal:
    principal = await play_guard.seat_principal(request, gid)
    if principal is None:
        raise HTTPException(
            403,
            "this browser holds no seat in this game: open your play link"
            f" (`ledger tournament my-games`), or watch it at /games/{gid}",
        )
    return principal


async def state(
    request: Request, gid: UUID, principal: Principal, token: str
) -> dict[str, Any]:
    """Everything the play panel shows, as the seat may see it now."""
    ledger = request.app.state.reader.ledger
    reads = request.app.state.reader.reads
    head, sight = await reads.head(principal, gid)
    game = head
    names = names_of(game)
    mine = principal.seats_in(gid)
    acting = [s for s in mine if s in game.to_act()] if not game.is_over else []
    query = request.query_params.get("q", "").strip().lower()[:100]
    wanted = request.query_params.get("target", "").strip()[:200]
    listed: list[dict[str, Any]] = []
    complete = True
    total = 0
    targets: list[str] = []
    view = await run_in_threadpool(game.ruleset.view, game.state, sight.viewer)
    for seat in acting:
        moves = ledger.cache.legal_moves(game, seat)
        total += len(moves)
        room = MOVES_SHOWN - len(listed)
        own = (  # a move is worded from its seat's own view (the board's, mostly)
            view
            if sight.viewer == Viewer.player(seat)
            else await run_in_threadpool(
                game.ruleset.view, game.state, Viewer.player(seat)
            )
        )
        rows, whole = await run_in_threadpool(
            moves_listed, game.ruleset, moves, seat, own, names, room, query, wanted
        )
        complete = complete and whole
        for row in rows:
            row["seat"] = seat
            row["who"] = seat_name(names, seat)
        listed.extend(rows)
        targets.extend(await run_in_threadpool(board_targets, moves))
    board = await run_in_threadpool(seat_board, game.ruleset, view, names, targets)
    return {
        "game": game,
        "game_id": str(gid),
        "version": game.version,
        "names": names,
        "seats": [seat_name(names, s) for s in mine],
        "to_act": [seat_name(names, s) for s in game.to_act()]
        if not game.is_over
        else [],
        "acting": acting,
        "moves": listed,
        "moves_total": total,
        "moves_complete": complete,
        "filtered": bool(query or wanted),
        "query": query,
        "target": wanted,
        "board": board,
        "board_marked": "data-target=" in board,
        "log": await _log(request, gid, game, sight),
        "clocks": clock_rows(game, now_of(request)),
        "draw": _draw(game, mine, names),
        "ended": game.is_over,
        "outcome": concluded_sentence(game.outcome, names)
        if game.is_over and game.outcome
        else "",
        "csrf": play_guard.csrf_token(token),
        "command_id": str(uuid.uuid4()),
    }


async def _log(
    request: Request, gid: UUID, head: Any, sight: Any
) -> list[dict[str, Any]]:
    """The newest sentences of the log, as this seat may read them: the
    events ``StreamGameEvents`` would send this caller, worded."""
    ledger = request.app.state.reader.ledger
    upto = min(head.version, sight.upto)
    _, events = await ledger.game_since(gid, max(0, upto - LOG_LINES), LOG_LINES)
    names = names_of(head)
    lines = []
    for event in events:
        if event.originator_version > upto:
            break
        shown = game_messages.event_message(
            head, event, sight.viewer, show_hashes=False
        )
        lines.append(
            {
                "version": shown.version,
                "sentence": sentence(head.ruleset, names, shown.type, shown.payload),
            }
        )
    return lines


def _draw(game: Any, mine: tuple[Seat, ...], names: Any) -> dict[str, Any]:
    """The draw controls the referee may allow: an offer standing, by whom."""
    offer = getattr(game, "draw_offer", None)
    return {
        "possible": game.seat_count == 2 and not game.is_over,
        "offered_by_me": offer is not None and offer in mine,
        "offered_to_me": offer is not None and offer not in mine,
        "offered_by": seat_name(names, offer) if offer is not None else "",
    }


async def page(request: Request) -> Response:
    gid = game_id(request)
    return await _show(request, gid, await _seat(request, gid))


async def _show(
    request: Request, gid: UUID, principal: Principal, said: str = "", status: int = 200
) -> Response:
    """The play page; with ``said``, what refused the seat's last click."""
    token = play_guard.credential(request, "seat", gid) or ""
    shown = await state(request, gid, principal, token)
    response = render(request, "play.html", status, **shown, said=said)
    response.headers.update(_private())
    return response


async def live(request: Request) -> Response:
    """``clock`` every second and ``state`` (the play panel) at each new
    version, as this seat sees them; ``done`` once the game has ended."""
    gid = game_id(request)
    principal = await _seat(request, gid)
    token = play_guard.credential(request, "seat", gid) or ""
    reads = request.app.state.reader.reads
    panel = templates.get_template("_play_state.html")
    clocks = templates.get_template("_clocks.html")
    shown = -1
    first = True
    looks = 0

    async def poll() -> tuple[dict[str, str] | None, str | None]:
        nonlocal shown, first, looks
        looks += 1
        head, _ = await reads.head(principal, gid)
        if head.version != shown:
            shown = head.version
            if first:  # the page was just drawn at about this version
                first = False
                if request.query_params.get("v") == str(head.version):
                    return _tick(clocks, head, request), (
                        "ended" if head.is_over else None
                    )
            data = await state(request, gid, principal, token)
            html = panel.render(**data)
            return {"event": "state", "data": html}, "ended" if head.is_over else None
        if looks % CLOCK_EVERY:
            return None, None
        return _tick(clocks, head, request), None

    return stream(poll, LOOK_SECONDS)


def _tick(clocks: Any, game: Any, request: Request) -> dict[str, str] | None:
    if game.clock is None:
        return None
    return {
        "event": "clock",
        "data": clocks.render(clocks=clock_rows(game, now_of(request)), ended=False),
    }


# ------------------------------------------------------------ actions


async def _acting(
    request: Request,
) -> tuple[UUID, Principal, Any]:
    """The game, the seat's caller and the form, once the form passed the guard."""
    gid = game_id(request)
    play_guard.check_origin(request)
    principal = await _seat(request, gid)
    form = await play_guard.form_of(request)
    token = play_guard.credential(request, "seat", gid) or ""
    play_guard.check_form(request, form, token)
    return gid, principal, form


async def _done(
    request: Request, gid: UUID, principal: Principal, said: str = ""
) -> Response:
    """The answer to a form: with htmx (``HX-Request``), the new play panel
    (``said``: why it was refused), swapped in place; without scripts, the
    page again (303 after a success, the page with ``said`` after a refusal).
    """
    if request.headers.get("hx-request") == "true":
        token = play_guard.credential(request, "seat", gid) or ""
        shown = await state(request, gid, principal, token)
        html = templates.get_template("_play_state.html").render(**shown, said=said)
        return HTMLResponse(html, headers=_private())
    if said:
        return await _show(request, gid, principal, said, 409)
    return RedirectResponse(f"/play/{gid}", status_code=303)


async def move(request: Request) -> Response:
    """Submit the listed move the seat chose (by its place in the list the
    page showed at ``version``)."""
    gid, principal, form = await _acting(request)
    ledger = request.app.state.reader.ledger
    try:
        version = int(str(form.get("version", "")))
        seat_raw, _, index_raw = str(form.get("move", "")).partition(":")
        seat, index = int(seat_raw), int(index_raw)
        command_id = str(uuid.UUID(str(form.get("command_id", ""))))
    except ValueError:
        raise HTTPException(400, "this form is not the play page's") from None
    head = await ledger.game(gid)
    if not 1 <= version <= head.version:
        raise HTTPException(400, "this form is not the play page's")
    try:
        seat = acting_seat(principal, head, seat)
        # the move as listed at the version the page showed: a form sent
        # twice is the same command id for the same move, which the ledger
        # records once; a game that moved on meanwhile refuses it
        shown = head if head.version == version else await ledger.game(gid, version)
        moves = ledger.cache.legal_moves(shown, seat)
        if not 0 <= index < len(moves):
            return await _done(
                request, gid, principal, "that move is not legal now: choose again"
            )
        await ledger.submit_move(
            gid,
            moves[index],
            seat,
            command_id,
            version,
            None,
            head if shown is head else None,
        )
    except ConcurrencyConflictError:
        return await _done(
            request,
            gid,
            principal,
            "the game moved on before your move: choose again",
        )
    except REFUSED as exc:
        return await _done(request, gid, principal, str(exc))
    return await _done(request, gid, principal)


async def control(request: Request) -> Response:
    """Offer, accept or decline a draw, or resign: the referee decides."""
    gid, principal, form = await _acting(request)
    ledger = request.app.state.reader.ledger
    what = request.path_params["what"]
    game = await ledger.game(gid)
    try:
        requested = form.get("seat")
        seat = acting_seat(principal, game, int(str(requested)) if requested else None)
        if what == "offer":
            await ledger.offer_draw(gid, seat)
        elif what == "accept":
            await ledger.accept_draw(gid, seat)
        elif what == "decline":
            await ledger.decline_draw(gid, seat)
        elif what == "resign":
            await ledger.resign(gid, seat)
        else:
            raise HTTPException(404, "no such action")
    except REFUSED as exc:
        return await _done(request, gid, principal, str(exc))
    except ValueError:
        raise HTTPException(400, "seat must be a number") from None
    return await _done(request, gid, principal)


# ------------------------------------------------------------ my games


async def my_games(request: Request) -> Response:
    """A tournament player's games that have not ended, each with a button
    that opens it in this browser."""
    from services.dashboard.web import path_id

    tid = path_id(request, "tournament_id", "tournament")
    held = await play_guard.player_grant(request, tid)
    if held is None:
        raise HTTPException(
            403, "this browser holds no player of this tournament: open your link"
        )
    grant, token = held
    rows = await _my_rows(request, tid, grant, token)
    return render(
        request,
        "play_mine.html",
        tournament_id=str(tid),
        player=grant.player_id,
        games=rows,
        csrf=play_guard.csrf_token(token),
    )


async def _my_rows(
    request: Request, tid: UUID, grant: Any, token: str
) -> list[dict[str, Any]]:
    reader = request.app.state.reader
    found = await run_in_threadpool(reader.desk.my_games, tid, grant.player_id, token)
    rows = []
    for r in sorted(found, key=lambda r: r["round"]):
        game = await reader.ledger.game(r["game_id"])
        names = names_of(game)
        rows.append(
            {
                "round": r["round"],
                "game_id": str(r["game_id"]),
                "game_type": game.game_type,
                "seats": ", ".join(seat_name(names, s) for s in r["seats"]),
                "to_act": ", ".join(seat_name(names, s) for s in game.to_act())
                if not game.is_over
                else "",
                "ended": game.is_over,
                "yours": not game.is_over
                and any(s in game.to_act() for s in r["seats"]),
            }
        )
    return rows


async def open_game(request: Request) -> Response:
    """Give this browser the player's seat in one of their tournament games."""
    from services.dashboard.web import path_id

    tid = path_id(request, "tournament_id", "tournament")
    gid = game_id(request)
    play_guard.check_origin(request)
    held = await play_guard.player_grant(request, tid)
    if held is None:
        raise HTTPException(403, "this browser holds no player of this tournament")
    grant, token = held
    form = await play_guard.form_of(request)
    play_guard.check_form(request, form, token)
    found = await run_in_threadpool(
        request.app.state.reader.desk.my_games, tid, grant.player_id, token
    )
    seat_token = next((r["token"] for r in found if r["game_id"] == gid), None)
    if seat_token is None:
        raise PermissionDeniedError("this is not one of your games")
    response = RedirectResponse(f"/play/{gid}", status_code=303)
    play_guard.keep(response, request, "seat", gid, seat_token)
    return response


routes = [
    Route("/play/links", mint, methods=["POST"], name="play_links"),
    Route("/play/enter/{code}", enter, name="play_enter"),
    Route("/play/tournaments/{tournament_id}", my_games, name="play_mine"),
    Route(
        "/play/tournaments/{tournament_id}/games/{game_id}",
        open_game,
        methods=["POST"],
        name="play_open",
    ),
    Route("/play/{game_id}", page, name="play"),
    Route("/play/{game_id}/live", live, name="play_live"),
    Route("/play/{game_id}/move", move, methods=["POST"], name="play_move"),
    Route("/play/{game_id}/{what}", control, methods=["POST"], name="play_control"),
]
