"""SQL reads over the stats and ratings views that the gRPC services do not need.

Every function takes a cursor with dict rows (like ``projections.stats_queries``)
and reads only view tables, never the event store, except
:func:`tournaments`, which lists tournaments from their creation events (there
is no tournament list view; the first event of each carries name and game).
"""

from __future__ import annotations

import json
from typing import Any


def headlines(curs: Any) -> dict[str, dict[str, Any]]:
    """Per game type: started, finished, live, median moves and rounds of finished games."""
    curs.execute(
        "SELECT game_type, count(*) AS started, count(ended_position) AS finished,"
        " count(*) - count(ended_position) AS live,"
        " percentile_cont(0.5) WITHIN GROUP (ORDER BY moves) AS median_moves,"
        " percentile_cont(0.5) WITHIN GROUP (ORDER BY rounds) AS median_rounds"
        " FROM stats_games GROUP BY game_type"
    )
    return {r["game_type"]: dict(r) for r in curs.fetchall()}


def first_player_rates(curs: Any) -> dict[str, float]:
    """Per game type: how often the first player won (finished games with a known one)."""
    curs.execute(
        "SELECT game_type, avg(won::int)::float8 AS rate FROM stats_seat_results"
        " WHERE first GROUP BY game_type"
    )
    return {r["game_type"]: r["rate"] for r in curs.fetchall()}


def games(
    curs: Any, game_type: str, *, finished: bool, limit: int = 10
) -> list[dict[str, Any]]:
    """The newest live games, or the most recently finished ones, of a game type."""
    if finished:
        curs.execute(
            "SELECT game_id, players, player_ids, created_at, ended_at, moves, rounds, termination,"
            " winners FROM stats_games WHERE game_type = %s AND ended_position IS NOT NULL"
            " ORDER BY ended_position DESC LIMIT %s",
            (game_type, limit),
        )
    else:
        curs.execute(
            "SELECT game_id, players, player_ids, created_at FROM stats_games"
            " WHERE game_type = %s AND ended_position IS NULL"
            " ORDER BY created_position DESC LIMIT %s",
            (game_type, limit),
        )
    return list(curs.fetchall())


def recent_player_games(
    curs: Any, player_id: str, game_type: str, limit: int = 20
) -> list[dict[str, Any]]:
    """A player's last finished games of one type, newest first."""
    curs.execute(
        "SELECT r.game_id, r.seat, r.rank, r.score, r.won, r.players, g.ended_at, g.moves,"
        " g.termination FROM stats_seat_results r JOIN stats_games g ON g.game_id = r.game_id"
        " WHERE r.player_id = %s AND r.game_type = %s ORDER BY r.ended_position DESC LIMIT %s",
        (player_id, game_type, limit),
    )
    return list(curs.fetchall())


def rating_history(
    curs: Any, game_type: str, player_id: str, limit: int = 1000
) -> list[dict[str, Any]]:
    """The newest ``limit`` rating changes of a player, oldest first."""
    curs.execute(
        "SELECT * FROM (SELECT * FROM ratings_history WHERE game_type = %s AND player_id = %s"
        " ORDER BY position DESC LIMIT %s) h ORDER BY position",
        (game_type, player_id, limit),
    )
    return list(curs.fetchall())


def tournaments(curs: Any, limit: int = 20) -> list[dict[str, Any]]:
    """The newest tournaments: ``[{tournament_id, name, game_type, format}]``."""
    curs.execute(
        "SELECT originator_id, state FROM tournaments_events WHERE originator_version = 1"
        " ORDER BY notification_id DESC LIMIT %s",
        (limit,),
    )
    out = []
    for r in curs.fetchall():
        body = json.loads(bytes(r["state"])).get("body", {})
        out.append(
            {
                "tournament_id": r["originator_id"],
                "name": body.get("name", "?"),
                "game_type": body.get("game_type", "?"),
                "format": body.get("format", "?"),
            }
        )
    return out


def tournament_version(curs: Any, tournament_id: Any) -> int:
    """The tournament's newest event version (cheap change detection for SSE)."""
    curs.execute(
        "SELECT max(originator_version) AS v FROM tournaments_events WHERE originator_id = %s",
        (tournament_id,),
    )
    row = curs.fetchone()
    return int(row["v"] or 0)
