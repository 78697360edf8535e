"""``ListGames``' paging, apart from the servicer.

Pages are keyset cursors (``created_at``, ``game_id``) in a signed page token
bound to the query's game type.  The rows themselves, each delayed game at
the version this caller may see, come from
:meth:`~services.ledger.reading.game_reads.GameReads.listing`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from services.api import page_tokens


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
