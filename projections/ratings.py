"""Ratings per game type with openskill's Plackett-Luce model.

Why a projection: ratings are a pure function of the ordered log, so a
rebuild replays the same games in the same order and reproduces every rating
exactly.  Only games created with ``player_ids`` are rated.  Tied ranks are
shared (openskill treats equal ranks as a tie).  A cooperative game (outcome
``team_won``/``team_lost``) rates the whole team against a pseudo-player
``scenario:<game_type>`` that stands for the adventure's difficulty.
Every history row points to the game and the event that caused it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from domain.games import find_game
from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE
from projections.base import LogEvent, View, select

MODEL = PlackettLuce()
COOPERATIVE = {"team_won", "team_lost"}
UNRATED = {"aborted", "forfeited"}
"""Endings that change no rating (the usual convention): an aborted game was
never really played, and a no-show forfeit says nothing about strength.  A
resignation and a timeout are rated losses.  In a game that played on after
a seat never showed up (three or more players), the absent seats
(``Outcome.absent``) are left out and the others rated among themselves."""
LEFT = {"resigned", "timed_out"}
"""Endings by a seat leaving; with no winner, the cooperative team lost."""


def scenario_id(game_type: str) -> str:
    return f"scenario:{game_type}"


def player_ranks(outcome: dict[str, Any], groups: Sequence[Sequence[int]]) -> list[int]:
    """A player's rank is the best rank among the seats they control."""
    return [min(outcome["ranks"][s] for s in seats) for seats in groups]


class RatingsView(View):
    name = "ratings"
    schema_version = 1
    topics = (CREATED_TYPE, CONCLUDED_TYPE)
    tables = ("ratings_games", "ratings_current", "ratings_history")
    ddl = """
    CREATE TABLE IF NOT EXISTS ratings_games (
        game_id uuid PRIMARY KEY, game_type text NOT NULL, player_ids text[] NOT NULL, seat_groups jsonb NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ratings_current (
        game_type text NOT NULL, player_id text NOT NULL, mu double precision NOT NULL,
        sigma double precision NOT NULL, ordinal double precision NOT NULL, games int NOT NULL,
        PRIMARY KEY (game_type, player_id)
    );
    CREATE INDEX IF NOT EXISTS ratings_current_board ON ratings_current (game_type, ordinal DESC, player_id);
    CREATE TABLE IF NOT EXISTS ratings_history (
        position bigint NOT NULL, game_type text NOT NULL, player_id text NOT NULL, game_id uuid NOT NULL,
        event_version bigint NOT NULL, rank int NOT NULL,
        mu_before double precision NOT NULL, sigma_before double precision NOT NULL,
        mu double precision NOT NULL, sigma double precision NOT NULL, ordinal double precision NOT NULL,
        PRIMARY KEY (game_type, player_id, position)
    );
    """

    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        ratings: dict[tuple[str, str], tuple[float, float, int]] = {}
        history: list[tuple[Any, ...]] = []
        for event in events:
            if event.type == CREATED_TYPE:
                body = event.body
                if body.get("player_ids"):
                    ruleset = find_game(body["game_type"])
                    groups = ruleset.player_seats(
                        ruleset.setup_model.model_validate(body["setup"])
                    )
                    curs.execute(
                        "INSERT INTO ratings_games VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        (
                            event.game_id,
                            body["game_type"],
                            body["player_ids"],
                            _json([list(g) for g in groups]),
                        ),
                    )
            else:
                curs.execute(
                    "SELECT * FROM ratings_games WHERE game_id = %s", (event.game_id,)
                )
                game = curs.fetchone()
                if (
                    game is not None
                    and event.body["outcome"]["termination"] not in UNRATED
                ):
                    history.extend(self._rate(curs, ratings, game, event))
        curs.executemany(
            "INSERT INTO ratings_current (game_type, player_id, mu, sigma, ordinal, games)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game_type, player_id) DO UPDATE SET"
            " mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal, games = EXCLUDED.games",
            [
                (gt, pid, mu, sigma, mu - 3 * sigma, n)
                for (gt, pid), (mu, sigma, n) in ratings.items()
            ],
        )
        curs.executemany(
            "INSERT INTO ratings_history VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            history,
        )

    def _current(
        self, curs: Any, cache: dict, game_type: str, player_id: str
    ) -> tuple[float, float, int]:
        key = (game_type, player_id)
        if key not in cache:
            curs.execute(
                "SELECT mu, sigma, games FROM ratings_current WHERE game_type = %s AND player_id = %s",
                key,
            )
            row = curs.fetchone()
            default = MODEL.rating()
            cache[key] = (
                (row["mu"], row["sigma"], row["games"])
                if row
                else (default.mu, default.sigma, 0)
            )
        return cache[key]

    def _rate(
        self, curs: Any, cache: dict, game: dict, event: LogEvent
    ) -> list[tuple[Any, ...]]:
        outcome = event.body["outcome"]
        game_type, players = game["game_type"], list(game["player_ids"])
        team_left = (
            outcome["termination"] in LEFT
            and not outcome["winners"]
            and not outcome.get("absent")  # no winner: the one there was absent
        )
        if outcome["termination"] in COOPERATIVE or team_left:
            entrants = [players, [scenario_id(game_type)]]
            ranks: list[float] = (
                [1, 2] if outcome["termination"] == "team_won" else [2, 1]
            )
        else:
            absent = set(outcome.get("absent", ()))
            present = [
                (p, rank)
                for p, seats, rank in zip(
                    players,
                    game["seat_groups"],
                    player_ranks(outcome, game["seat_groups"]),
                )
                if not absent.intersection(seats)
            ]
            if len(present) < 2:
                return []  # nobody left to be rated against
            entrants = [[p] for p, _ in present]
            ranks = [rank for _, rank in present]
        before = {
            p: self._current(curs, cache, game_type, p)
            for team in entrants
            for p in team
        }
        teams = [
            [MODEL.create_rating([before[p][0], before[p][1]], name=p) for p in team]
            for team in entrants
        ]
        rated = MODEL.rate(teams, ranks=ranks)
        rows = []
        for team, new_team, rank in zip(entrants, rated, ranks):
            for player, new in zip(team, new_team):
                mu0, sigma0, n = before[player]
                cache[(game_type, player)] = (new.mu, new.sigma, n + 1)
                rows.append(
                    (
                        event.position,
                        game_type,
                        player,
                        event.game_id,
                        event.version,
                        rank,
                        mu0,
                        sigma0,
                        new.mu,
                        new.sigma,
                        new.mu - 3 * new.sigma,
                    )
                )
        return rows


def _json(value: Any) -> Any:
    from psycopg.types.json import Jsonb

    return Jsonb(value)


def leaderboard(
    curs: Any, game_type: str, limit: int, offset: int
) -> list[dict[str, Any]]:
    return select(
        curs,
        "SELECT player_id, mu, sigma, ordinal, games FROM ratings_current WHERE game_type = %s"
        " AND player_id NOT LIKE 'scenario:%%' ORDER BY ordinal DESC, player_id LIMIT %s OFFSET %s",
        (game_type, limit, offset),
    )


def history(
    curs: Any,
    game_type: str,
    player_id: str,
    limit: int,
    offset: int = 0,
    *,
    newest: bool = False,
) -> list[dict[str, Any]]:
    """A player's rating changes, oldest first: the page of ``limit`` from
    ``offset`` counted from the first change, or (``newest``) from the last,
    so that a chart shows the newest ``limit`` changes in the order they came.
    """
    direction = "DESC" if newest else "ASC"
    return select(
        curs,
        "SELECT * FROM (SELECT * FROM ratings_history WHERE game_type = %s AND player_id = %s"
        f" ORDER BY position {direction} LIMIT %s OFFSET %s) h ORDER BY position",
        (game_type, player_id, limit, offset),
    )
