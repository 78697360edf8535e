"""A game: replay viewer, its frames as JSON, the audit badge and the export.

The viewer fetches the log's sentences in pages from ``/games/{id}/frames``
and the frame it shows, with its board, from ``/games/{id}/frames/{v}``
(each the JSON of the page ``ReplayService.ListFrames`` answers an anonymous
caller, read through the same service-layer read path), so a long game does
not weigh on the first render, a page does not draw 25 boards to show one,
and every byte the browser gets went through the one disclosure policy.  Audit and export take the export ``ExportGame`` gives,
so they open exactly when the export is public.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from domain.contract.core import InvalidCommandError
from domain.words.sentences import seat_name
from services.dashboard.clock_rows import clock_rows, is_live
from services.dashboard.frame_words import names_of, readable
from services.dashboard.web import path_id, read, reader, render

PAGE = 25


def game_id(request: Request) -> UUID:
    return path_id(request, "game_id", "game")


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    return _whole(request.query_params.get(name), name, default, lo, hi)


def _whole(raw: str | None, name: str, default: int, lo: int, hi: int) -> int:
    """``raw`` as a whole number in ``[lo, hi]`` (``default`` when absent).

    :raises InvalidCommandError: naming ``name``, for anything else.
    """
    try:
        value = default if raw is None else int(raw)
    except ValueError:
        raise InvalidCommandError(f"{name} must be a whole number") from None
    if not lo <= value <= hi:
        raise InvalidCommandError(f"{name} must be between {lo} and {hi}")
    return value


def _header(game: Any) -> dict[str, Any]:
    """Only what ``GetGame`` shows anyone: type, players, status, outcome.

    ``winners`` are as people read seats (a name, else "seat N" from 1); the
    outcome's own ``winners`` stay the API's seat numbers (from 0)."""
    outcome = game.outcome
    names = names_of(game)
    return {
        "winners": [seat_name(names, s) for s in outcome.winners] if outcome else [],
        "game_id": str(game.id),
        "game_type": game.game_type,
        "player_ids": list(game.player_ids or ()),
        "seats": game.seat_count,
        "version": game.version,
        "ended": game.is_over,
        "to_act": list(game.to_act()),
        "outcome": outcome,
        "created_at": game.created_on,
    }


async def replay(request: Request) -> Response:
    gid = game_id(request)
    game = await read(request, "game", gid)
    header = _header(game)
    # a running game opens where it stands; a finished one at its start, to replay
    opening = 1 if header["ended"] else header["version"]
    start = _int(request, "v", opening, 0, 10**9)
    return render(
        request,
        "game.html",
        g=header,
        start=min(max(start, 1), header["version"]),
        page=PAGE,
        live_clock=is_live(game),
        # a finished game's clocks as they stood at its end
        clocks=clock_rows(game, game.modified_on) if game.is_over else [],
    )


async def frames(request: Request) -> Response:
    """A page of frames for the log beside the viewer: each event with its
    sentence and actor, without the game's view and board.

    The viewer shows one board at a time, and drawing a board is most of a
    frame's cost (a Thorgal board is hundreds of SVG elements), so a page
    carries none and :func:`frame` gives the shown one."""
    gid = game_id(request)
    after = _int(request, "after", 0, 0, 10**9)
    limit = _int(request, "limit", PAGE, 1, 200)
    game = await read(request, "game", gid)
    response = await reader(request).frames(gid, after, limit, views=False)
    return JSONResponse(await run_in_threadpool(readable, game, response))


async def frame(request: Request) -> Response:
    """One frame whole, as a page of one: the event, the game's view after it
    and its drawn board (no frame when the caller may not see that far yet)."""
    gid = game_id(request)
    version = _whole(request.path_params["version"], "version", 1, 1, 10**9)
    game = await read(request, "game", gid)
    response = await reader(request).frames(gid, version - 1, 1)
    return JSONResponse(await run_in_threadpool(readable, game, response))


CHAIN_CHECKS = {"sequence", "encoding", "hash", "chain", "genesis"}
HISTORY_CHECKS = {"signer", "checkpoint", "listing"}
"""Checks against what the database cannot rewrite alone: the signer's
record, its checkpoints, and the listing row the log must agree with."""


def audit_summary(report: Any) -> list[tuple[str, bool, str]]:
    """``(check, passed, detail)`` rows: hash chain, seed, decisions, receipts."""
    failed = {f.check for f in report.failures}
    rows = [
        ("hash chain", not failed & CHAIN_CHECKS, f"{report.events} events linked"),
        ("seed", "seed" not in failed, f"from {report.seed_source}"),
        (
            "decisions",
            not failed - CHAIN_CHECKS - {"seed", "signed head"} - HISTORY_CHECKS,
            f"{report.decisions_rederived} re-derived",
        ),
        (
            "signed history",
            not failed & HISTORY_CHECKS,
            "the log reaches every head the ledger signed and checkpointed",
        ),
    ]
    if report.concluded or "signed head" in failed:
        rows.append(
            (
                "signed head",
                "signed head" not in failed,
                "the ledger signed how the game ended",
            )
        )
    receipt_failed = any(check.startswith("receipt") for check in failed)
    if report.receipts_verified or receipt_failed:  # as ``ledger verify`` counts them
        rows.append(
            (
                "receipts",
                not receipt_failed,
                f"{report.receipts_verified} receipts checked",
            )
        )
    return rows


async def audit(request: Request) -> Response:
    gid = game_id(request)
    report = await reader(request).audit(gid)
    return render(request, "_audit.html", report=report, checks=audit_summary(report))


async def export(request: Request) -> Response:
    gid = game_id(request)
    lines = await reader(request).export(gid)
    return Response(
        "".join(line + "\n" for line in lines),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{gid}.ndjson"'},
    )


async def checkpoint(request: Request) -> Response:
    """The latest signed checkpoint: keep it for ``ledger audit --against``."""
    found = await run_in_threadpool(reader(request).checkpoint)
    if found is None:
        return JSONResponse({"error": "no checkpoint yet"}, status_code=404)
    return JSONResponse(found)


routes = [
    Route("/checkpoint.json", checkpoint, name="checkpoint"),
    Route("/games/{game_id}", replay, name="game"),
    Route("/games/{game_id}/frames", frames, name="frames"),
    Route("/games/{game_id}/frames/{version}", frame, name="frame"),
    Route("/games/{game_id}/audit", audit, methods=["POST"], name="audit"),
    Route("/games/{game_id}/export.ndjson", export, name="export"),
]
