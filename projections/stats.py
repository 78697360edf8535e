"""Statistics read model: one row per game, per seat result and per seat facet.

Why the view only subscribes to ``GameCreated`` and ``GameConcluded``: every
statistic here is about finished games, and a game's events are only useful
together (moves, final state, facets).  So the runner's SQL filter skips the
bulk of the log, and at conclusion the view reads that game's rows once
(``ledger_events`` by primary key, inside the runner's transaction, so a
rebuild sees exactly the same rows).  Counting event by event instead would
need an upsert per game per batch and a decoded state kept across batches.

Why snapshots: ``facts(setup, final_state)`` needs the final state.  The
ledger already stores periodic snapshots of the same state, so the view starts
from the newest one and evolves only the tail (falls back to a full replay
from ``initial_state`` when there is none, or with ``use_snapshots=False``;
both give identical rows, which a test checks).  Game payloads are decoded
only when the ruleset has a facts or event-facet hook; a ruleset without them
gets the generic columns only (every registered game has them now; schema 2
added Thorgal's, so its old rows are rebuilt with rounds and facets).

Conventions:

- ``events`` counts the game's decided events; ``moves`` counts decisions
  taken by a seat (the first event of a decision has version ``decision + 1``;
  the opening decision has no actor).
- ``first_player`` is ``facts.first_player``, else the value of a
  ``first_player`` event facet (Thalara keeps the first player only in its
  event), else NULL.
- ``stats_seat_facets`` holds the seat facets of ``facts`` (count 1) and the
  seat's event facets with their counts, so one query gives win rate by
  character, clan, land types, character played or card played.
- ``stats_facet_counts`` totals event facets of finished games (seat -1 for
  facets without a seat).
- An aborted game counts in no statistic: its row keeps no end position and
  records only ``termination = 'aborted'``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from psycopg.rows import tuple_row

from domain.games import find_game
from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE, LEDGER_TYPE_PREFIX
from projections.base import LogEvent, View, add_totals
from projections.stats_summary import append_rows, summarise

GAMES_PER_READ = 32
"""Finished games whose logs are read per query.  Why not the whole batch: the
Python work between two statements must stay well under the connection's
``idle_in_transaction_session_timeout`` (eventsourcing sets 5 s), and a batch of
500 concluded games is a few hundred thousand events to replay (on a busy
machine that took longer and the server closed the connection)."""


def _aborted(event: LogEvent) -> bool:
    return bool(event.body["outcome"]["termination"] == "aborted")


class StatsView(View):
    name = "stats"
    schema_version = 3
    topics = (CREATED_TYPE, CONCLUDED_TYPE)
    tables = (
        "stats_games",
        "stats_seat_results",
        "stats_seat_facets",
        "stats_facet_counts",
        "stats_facet_rates",
    )
    ddl = """
    CREATE TABLE IF NOT EXISTS stats_games (
        game_id uuid PRIMARY KEY, game_type text NOT NULL, players int NOT NULL, seats int NOT NULL,
        player_ids text[] NOT NULL, setup jsonb NOT NULL, created_position bigint NOT NULL,
        created_at timestamptz NOT NULL, ended_position bigint, ended_at timestamptz,
        events int, moves int, rounds int, first_player int, termination text,
        ranks int[], scores int[], winners int[]
    );
    CREATE INDEX IF NOT EXISTS stats_games_type ON stats_games (game_type, ended_position);
    -- the statistics' distributions read a game type's every finished game:
    -- from these narrow entries (an index-only scan), not the wide rows
    CREATE INDEX IF NOT EXISTS stats_games_lengths ON stats_games (game_type) INCLUDE
        (ended_position, players, termination, moves, rounds, events, created_at, ended_at, first_player);
    CREATE TABLE IF NOT EXISTS stats_seat_results (
        game_id uuid NOT NULL, game_type text NOT NULL, seat int NOT NULL, player_id text,
        players int NOT NULL, rank int NOT NULL, score int NOT NULL, won boolean NOT NULL,
        first boolean, ended_position bigint NOT NULL, PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX IF NOT EXISTS stats_seat_results_type ON stats_seat_results (game_type, players, seat);
    CREATE INDEX IF NOT EXISTS stats_seat_results_scores ON stats_seat_results (game_type) INCLUDE
        (players, seat, score, won, first, game_id);
    CREATE INDEX IF NOT EXISTS stats_seat_results_player
        ON stats_seat_results (player_id, ended_position) WHERE player_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS stats_seat_facets (
        game_id uuid NOT NULL, game_type text NOT NULL, seat int NOT NULL, key text NOT NULL,
        value text NOT NULL, count int NOT NULL, PRIMARY KEY (game_id, seat, key, value)
    );
    CREATE INDEX IF NOT EXISTS stats_seat_facets_key ON stats_seat_facets (game_type, key, value);
    CREATE TABLE IF NOT EXISTS stats_facet_rates (
        game_type text NOT NULL, key text NOT NULL, value text NOT NULL, players int NOT NULL,
        games bigint NOT NULL, wins bigint NOT NULL, PRIMARY KEY (game_type, key, value, players)
    );
    CREATE TABLE IF NOT EXISTS stats_facet_counts (
        game_type text NOT NULL, key text NOT NULL, value text NOT NULL, seat int NOT NULL,
        count bigint NOT NULL, PRIMARY KEY (game_type, key, value, seat)
    );
    """

    def __init__(
        self,
        events_table: str = "ledger_events",
        snapshots_table: str = "ledger_snapshots",
        use_snapshots: bool = True,
    ) -> None:
        self.events_table = events_table
        self.snapshots_table = snapshots_table
        self.use_snapshots = use_snapshots

    def apply(self, curs: Any, events: Sequence[LogEvent]) -> None:
        games: dict[Any, dict[str, Any]] = {}
        created_rows = []
        for event in events:
            if event.type == CREATED_TYPE:
                body = event.body
                ruleset = find_game(body["game_type"])
                setup = ruleset.setup_model.model_validate(body["setup"])
                players = len(ruleset.player_seats(setup))
                games[event.game_id] = {
                    "game_type": ruleset.name,
                    "setup": body["setup"],
                    "player_ids": body.get("player_ids") or [],
                }
                created_rows.append(
                    (
                        event.game_id,
                        ruleset.name,
                        players,
                        body["seat_count"],
                        body.get("player_ids") or [],
                        json.dumps(body["setup"]),
                        event.position,
                        event.timestamp,
                    )
                )
        if created_rows:
            curs.executemany(
                "INSERT INTO stats_games (game_id, game_type, players, seats, player_ids, setup,"
                " created_position, created_at) VALUES (%s,%s,%s,%s,%s,%s::jsonb,%s,%s) ON CONFLICT DO NOTHING",
                created_rows,
            )
        ended = [e for e in events if e.type == CONCLUDED_TYPE]
        if not ended:
            return
        ids = [e.game_id for e in ended]
        missing = [g for g in ids if g not in games]
        if missing:
            curs.execute(
                "SELECT game_id, game_type, setup, player_ids FROM stats_games WHERE game_id = ANY(%s)",
                (missing,),
            )
            for row in curs.fetchall():
                games[row["game_id"]] = {
                    "game_type": row["game_type"],
                    "setup": row["setup"],
                    "player_ids": list(row["player_ids"]),
                }
        updates: list[tuple[Any, ...]] = []
        results: list[tuple[Any, ...]] = []
        seat_facets: list[tuple[Any, ...]] = []
        totals: Counter[tuple[str, str, str, int]] = Counter()
        # created before this view existed in an older schema: skipped
        known = [e for e in ended if e.game_id in games and not _aborted(e)]
        # an aborted game was never really played: no statistics, only its
        # termination on its row (which stays without an end position)
        updates.extend(
            (None, None, None, None, None, None, "aborted", None, None, None, e.game_id)
            for e in ended
            if _aborted(e)
        )
        for start in range(0, len(known), GAMES_PER_READ):
            chunk = known[start : start + GAMES_PER_READ]
            chunk_ids = [e.game_id for e in chunk]
            logs = self._game_logs(curs, chunk_ids)
            snapshots = self._snapshots(curs, chunk_ids) if self.use_snapshots else {}
            for event in chunk:
                game = games[event.game_id]
                summary = summarise(
                    game, logs.get(event.game_id, []), snapshots.get(event.game_id)
                )
                append_rows(event, game, summary, updates, results, seat_facets, totals)
        curs.executemany(
            "UPDATE stats_games SET ended_position=%s, ended_at=%s, events=%s, moves=%s, rounds=%s,"
            " first_player=%s, termination=%s, ranks=%s, scores=%s, winners=%s WHERE game_id=%s",
            updates,
        )
        with curs.copy(
            "COPY stats_seat_results (game_id, game_type, seat, player_id, players, rank, score,"
            " won, first, ended_position) FROM STDIN"
        ) as copy:
            for row in results:
                copy.write_row(row)
        with curs.copy(
            "COPY stats_seat_facets (game_id, game_type, seat, key, value, count) FROM STDIN"
        ) as copy:
            for row in seat_facets:
                copy.write_row(row)
        self._add_rates(curs, results, seat_facets)
        add_totals(
            curs,
            "stats_facet_counts",
            {"game_type": "text", "key": "text", "value": "text", "seat": "int"},
            {k: (n,) for k, n in totals.items()},
        )

    @staticmethod
    def _add_rates(
        curs: Any, results: list[tuple[Any, ...]], seat_facets: list[tuple[Any, ...]]
    ) -> None:
        """Add this batch's seat-games to the win-rate totals per facet value.

        The same counts as joining ``stats_seat_facets`` with
        ``stats_seat_results`` (``stats_queries.win_rate_by_facet``), kept as
        running totals so a dashboard reads one small table, not a join over
        every seat facet of every game.
        """
        seat = {(r[0], r[2]): (r[4], r[7]) for r in results}
        games: Counter[tuple[str, str, str, int]] = Counter()
        wins: Counter[tuple[str, str, str, int]] = Counter()
        for gid, gt, s, key, value, _ in seat_facets:
            players, won = seat[(gid, s)]
            games[(gt, key, value, players)] += 1
            wins[(gt, key, value, players)] += int(won)
        add_totals(
            curs,
            "stats_facet_rates",
            {"game_type": "text", "key": "text", "value": "text", "players": "int"},
            {k: (n, wins[k]) for k, n in games.items()},
            columns=("games", "wins"),
        )

    def _game_logs(
        self, curs: Any, ids: list[Any]
    ) -> dict[Any, list[tuple[int, str, bytes]]]:
        rows = curs.connection.cursor(row_factory=tuple_row).execute(
            f"SELECT originator_id, originator_version, topic, state FROM {self.events_table}"
            " WHERE originator_id = ANY(%s) AND NOT starts_with(topic, %s)"
            " ORDER BY originator_id, originator_version",
            (ids, LEDGER_TYPE_PREFIX),
            binary=True,  # bytea as it is stored, not hex text to decode
        )
        logs: dict[Any, list[tuple[int, str, bytes]]] = {}
        for game_id, version, topic, state in rows.fetchall():
            logs.setdefault(game_id, []).append((version, topic, state))
        return logs

    def _snapshots(self, curs: Any, ids: list[Any]) -> dict[Any, tuple[int, bytes]]:
        curs.execute(
            f"SELECT DISTINCT ON (originator_id) originator_id, originator_version, state"
            f" FROM {self.snapshots_table} WHERE originator_id = ANY(%s)"
            " ORDER BY originator_id, originator_version DESC",
            (ids,),
        )
        return {
            r["originator_id"]: (r["originator_version"], r["state"])
            for r in curs.fetchall()
        }
