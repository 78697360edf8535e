"""``ListGames``' paging and its one disclosure rule, apart from the servicer.

Pages are keyset cursors (``created_at``, ``game_id``) in a signed page token
bound to the query's game type.  A running game with a spectator delay is
listed at the version this caller may see: its live version would tell a
spectator when a move was made.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from services.api import page_tokens
from services.api.auth import Principal
from services.api.disclosure import SpectatorWindow
from services.ledger.application import GameLedger


def parse_cursor(page_token: str, game_type: str) -> tuple[datetime, UUID] | None:
    """Where the next page starts (``None``: the first page).

    :raises PageTokenError: a malformed token, or one issued for another query.
    """
    if not page_token:
        return None
    token = page_tokens.decode("ListGames", page_token)
    if token.get("q") != game_type:
        raise page_tokens.PageTokenError("was issued for another query")
    return (datetime.fromisoformat(token["t"]), UUID(token["id"]))


def next_page_token(rows: list[dict[str, Any]], page_size: int, game_type: str) -> str:
    """The token for the page after ``rows[:page_size]`` (``""``: no more)."""
    if len(rows) <= page_size:
        return ""
    last = rows[page_size - 1]
    return page_tokens.encode(
        "ListGames",
        {
            "t": last["created_at"].isoformat(),
            "id": str(last["game_id"]),
            "q": game_type,
        },
    )


class GameListing:
    """Reads listing pages as one caller may see them (blocking: run it in ``io``)."""

    def __init__(self, ledger: GameLedger, window: SpectatorWindow) -> None:
        self._ledger = ledger
        self._window = window

    def rows(
        self, principal: Principal, limit: int, before: Any, game_type: str
    ) -> list[dict[str, Any]]:
        """A page of the listing, with each running delayed game's version as
        this caller may see it (a live version would tell when a move was made)."""
        rows = self._ledger.list_games(limit, before, game_type or None)
        for row in rows:
            if row["spectator_delay"] and row["status"] == "active":
                game, _ = self._window.game_for(principal, row["game_id"])
                row["version"] = game.version
                row["status"] = "ended" if game.is_over else "active"
        return rows
