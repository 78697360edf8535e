"""Read functions over the stats view's tables (what StatsService and the
dashboard serve).

Why SQL aggregates and not precomputed summaries: the tables are per game and
per seat, small enough that percentiles and histograms computed on demand stay
fast, and every dashboard filter (player count, facet key) comes for free.
Every function takes a cursor with dict rows and returns plain dicts/lists.

Percentiles use ``percentile_cont`` (linear interpolation, like numpy's
default).  Histograms split ``[min, max]`` into ``buckets`` equal-width bins,
the last one closed.  Win rates count a seat as winning when it is among the
outcome's winners (rank 1; shared on draws; nobody when a cooperative team
lost).
"""

from __future__ import annotations

from typing import Any

from projections.base import select

METRICS = {
    "rounds": "rounds",
    "moves": "moves",
    "events": "events",
    "seconds": "extract(epoch FROM ended_at - created_at)::float8",
}


ENDED_AS = "(%(t)s::text IS NULL OR termination = %(t)s)"
"""The filter on ``stats_games`` by how a game ended (``None``: any way)."""
SEATS_ENDED_AS = (
    "(%(t)s::text IS NULL OR game_id IN"
    " (SELECT game_id FROM stats_games WHERE termination = %(t)s))"
)
"""The same filter on the per-seat tables."""


def games_count(
    curs: Any, game_type: str | None = None, termination: str | None = None
) -> list[dict[str, Any]]:
    """``[{game_type, started, finished}]`` per game type (``finished``: those
    that ended as ``termination``, when given)."""
    return select(
        curs,
        "SELECT game_type, count(*) AS started,"
        f" count(ended_position) FILTER (WHERE {ENDED_AS}) AS finished FROM stats_games"
        " WHERE %(gt)s::text IS NULL OR game_type = %(gt)s GROUP BY game_type ORDER BY game_type",
        {"gt": game_type, "t": termination},
    )


def termination_counts(curs: Any, game_type: str) -> list[dict[str, Any]]:
    """``[{termination, games}]``: how the game type's games ended (aborted
    games too, which count in no other statistic)."""
    return select(
        curs,
        "SELECT termination, count(*) AS games FROM stats_games WHERE game_type = %s"
        " AND termination IS NOT NULL GROUP BY termination ORDER BY termination",
        (game_type,),
    )


def _distribution(
    curs: Any, source: str, params: dict[str, Any], buckets: int
) -> dict[str, Any]:
    curs.execute(
        f"SELECT count(v) AS count, min(v)::float8 AS min, max(v)::float8 AS max, avg(v)::float8 AS mean,"
        f" percentile_cont(0.5) WITHIN GROUP (ORDER BY v) AS median,"
        f" percentile_cont(0.9) WITHIN GROUP (ORDER BY v) AS p90 FROM ({source}) s WHERE v IS NOT NULL",
        params,
    )
    out = dict(curs.fetchone())
    out["histogram"] = []
    if not out["count"]:
        return out
    lo, hi = out["min"], out["max"]
    n = buckets if hi > lo else 1
    width = (hi - lo) / n if hi > lo else 1.0
    curs.execute(
        f"SELECT least(width_bucket(v::float8, %(lo)s, %(hi)s, %(n)s), %(n)s) AS b, count(*) AS c"
        f" FROM ({source}) s WHERE v IS NOT NULL GROUP BY b",
        {**params, "lo": lo, "hi": lo + width * n, "n": n},
    )
    counts = {r["b"]: r["c"] for r in curs.fetchall()}
    out["histogram"] = [
        {
            "lo": lo + width * i,
            "hi": lo + width * (i + 1),
            "count": counts.get(i + 1, 0),
        }
        for i in range(n)
    ]
    return out


def length_distribution(
    curs: Any,
    game_type: str,
    metric: str = "rounds",
    buckets: int = 10,
    players: int | None = None,
    termination: str | None = None,
) -> dict[str, Any]:
    """Finished games' length in ``rounds``, ``moves``, ``events`` or wall ``seconds``:
    ``{count, min, max, mean, median, p90, histogram: [{lo, hi, count}]}``."""
    column = METRICS[metric]
    source = (
        f"SELECT {column} AS v FROM stats_games WHERE game_type = %(gt)s AND ended_position IS NOT NULL"
        f" AND (%(p)s::int IS NULL OR players = %(p)s) AND {ENDED_AS}"
    )
    params = {"gt": game_type, "p": players, "t": termination}
    return _distribution(curs, source, params, buckets)


def score_distribution(
    curs: Any,
    game_type: str,
    buckets: int = 10,
    players: int | None = None,
    seat: int | None = None,
    termination: str | None = None,
) -> dict[str, Any]:
    """Final scores of every seat (or one seat) of finished games; same shape as
    :func:`length_distribution`."""
    source = (
        "SELECT score AS v FROM stats_seat_results WHERE game_type = %(gt)s"
        " AND (%(p)s::int IS NULL OR players = %(p)s) AND (%(s)s::int IS NULL OR seat = %(s)s)"
        f" AND {SEATS_ENDED_AS}"
    )
    params = {"gt": game_type, "p": players, "s": seat, "t": termination}
    return _distribution(curs, source, params, buckets)


def _rate(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for r in rows:
        r["win_rate"] = r["wins"] / r["games"] if r["games"] else 0.0
    return rows


def win_rate_by_seat(
    curs: Any, game_type: str, termination: str | None = None
) -> list[dict[str, Any]]:
    """``[{players, seat, games, wins, win_rate}]``: by table size, since the
    advantage of a seat depends on how many play."""
    return _rate(
        select(
            curs,
            "SELECT players, seat, count(*) AS games, count(*) FILTER (WHERE won) AS wins FROM stats_seat_results"
            f" WHERE game_type = %(gt)s AND {SEATS_ENDED_AS} GROUP BY players, seat ORDER BY players, seat",
            {"gt": game_type, "t": termination},
        )
    )


def win_rate_by_first_player(
    curs: Any, game_type: str, termination: str | None = None
) -> list[dict[str, Any]]:
    """``[{players, first, games, wins, win_rate}]``: ``first`` is true for the
    first player's seat-games, false for everyone else's (games with a known
    first player only)."""
    return _rate(
        select(
            curs,
            "SELECT players, first, count(*) AS games, count(*) FILTER (WHERE won) AS wins FROM stats_seat_results"
            f" WHERE game_type = %(gt)s AND first IS NOT NULL AND {SEATS_ENDED_AS}"
            " GROUP BY players, first ORDER BY players, first DESC",
            {"gt": game_type, "t": termination},
        )
    )


def win_rate_by_facet(
    curs: Any, game_type: str, key: str, players: int | None = None
) -> list[dict[str, Any]]:
    """``[{value, games, wins, win_rate}]``: seat-games whose seat had facet
    ``key=value`` (``character``, ``clan``, ``land_types``, ``character_played``,
    ``card_played``...), most played first."""
    return _rate(
        select(
            curs,
            "SELECT f.value, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins"
            " FROM stats_seat_facets f JOIN stats_seat_results r ON r.game_id = f.game_id AND r.seat = f.seat"
            " WHERE f.game_type = %(gt)s AND f.key = %(k)s AND (%(p)s::int IS NULL OR r.players = %(p)s)"
            " GROUP BY f.value ORDER BY games DESC, f.value",
            {"gt": game_type, "k": key, "p": players},
        )
    )


def win_rates_by_facets(
    curs: Any, game_type: str, players: int | None = None
) -> list[dict[str, Any]]:
    """``[{key, value, games, wins, win_rate}]`` for every seat facet key at
    once, most played first within a key: the same numbers as
    :func:`win_rate_by_facet` per key, from the view's running totals (one
    small table, whatever the number of games)."""
    return _rate(
        select(
            curs,
            "SELECT key, value, sum(games)::bigint AS games, sum(wins)::bigint AS wins FROM stats_facet_rates"
            " WHERE game_type = %(gt)s AND (%(p)s::int IS NULL OR players = %(p)s)"
            " GROUP BY key, value ORDER BY key, games DESC, value",
            {"gt": game_type, "p": players},
        )
    )


def facet_frequency(
    curs: Any,
    game_type: str,
    key: str,
    by_seat: bool = False,
    limit: int = 100,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """``[{value, [seat,] count, share}]`` of event facet ``key`` over finished
    games (e.g. card play frequency: ``key="card_played"``), most frequent
    first; ``share`` is of all occurrences of ``key`` (per seat when ``by_seat``)."""
    seat = "seat, " if by_seat else ""
    part = "PARTITION BY seat" if by_seat else ""
    return select(
        curs,
        f"SELECT value, {seat}n AS count, n::float8 / sum(n) OVER ({part}) AS share FROM ("
        f" SELECT value, {seat}sum(count)::bigint AS n FROM stats_facet_counts WHERE game_type = %s AND key = %s"
        f" GROUP BY value{', seat' if by_seat else ''}) t ORDER BY {seat}count DESC, value LIMIT %s OFFSET %s",
        (game_type, key, limit, offset),
    )


def seat_facet_frequency(
    curs: Any, game_type: str, key: str, limit: int = 100, offset: int = 0
) -> list[dict[str, Any]]:
    """``[{value, count, share}]`` of seat facet ``key`` (``character``,
    ``clan``): how many seat-games had each value, most frequent first.

    Seat facets are kept as win-rate totals, not as event counts, so their
    frequency is the number of seat-games per value (:func:`facet_frequency`
    is the same for event facets)."""
    return select(
        curs,
        "SELECT value, n AS count, n::float8 / sum(n) OVER () AS share FROM ("
        " SELECT value, sum(games)::bigint AS n FROM stats_facet_rates WHERE game_type = %s AND key = %s"
        " GROUP BY value) t ORDER BY count DESC, value LIMIT %s OFFSET %s",
        (game_type, key, limit, offset),
    )


def facet_keys(curs: Any, game_type: str) -> list[dict[str, Any]]:
    """``[{key, source}]``: which keys exist (``seat`` facets and ``event`` facets)."""
    return select(
        curs,
        "SELECT DISTINCT key, 'seat' AS source FROM stats_facet_rates WHERE game_type = %(gt)s"
        " UNION SELECT DISTINCT key, 'event' FROM stats_facet_counts WHERE game_type = %(gt)s ORDER BY 1, 2",
        {"gt": game_type},
    )


def player_history(
    curs: Any,
    player_id: str,
    game_type: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """``[{game_id, game_type, seat, rank, score, won, players, ended_at, rounds,
    moves, termination}]``, oldest first (log order), one row per seat played."""
    return select(
        curs,
        "SELECT r.game_id, r.game_type, r.seat, r.rank, r.score, r.won, r.players, g.ended_at, g.rounds,"
        " g.moves, g.termination FROM stats_seat_results r JOIN stats_games g ON g.game_id = r.game_id"
        " WHERE r.player_id = %(p)s AND (%(gt)s::text IS NULL OR r.game_type = %(gt)s)"
        " ORDER BY r.ended_position, r.seat LIMIT %(l)s OFFSET %(o)s",
        {"p": player_id, "gt": game_type, "l": limit, "o": offset},
    )


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


def newest_games(
    curs: Any, game_type: str, *, finished: bool, limit: int = 10
) -> list[dict[str, Any]]:
    """The newest live games, or the most recently finished ones (with how
    they ended), of a game type."""
    if finished:
        ended = ", ended_at, moves, rounds, termination, winners"
        which, newest = "ended_position IS NOT NULL", "ended_position"
    else:
        ended, which, newest = "", "ended_position IS NULL", "created_position"
    return select(
        curs,
        f"SELECT game_id, players, player_ids, created_at{ended} FROM stats_games"
        f" WHERE game_type = %s AND {which} ORDER BY {newest} DESC LIMIT %s",
        (game_type, limit),
    )


def recent_player_games(
    curs: Any, player_id: str, game_type: str, limit: int = 20
) -> list[dict[str, Any]]:
    """A player's last finished games of one type, newest first."""
    return select(
        curs,
        "SELECT r.game_id, r.seat, r.rank, r.score, r.won, r.players, g.ended_at, g.moves,"
        " g.termination FROM stats_seat_results r JOIN stats_games g ON g.game_id = r.game_id"
        " WHERE r.player_id = %s AND r.game_type = %s ORDER BY r.ended_position DESC LIMIT %s",
        (player_id, game_type, limit),
    )
