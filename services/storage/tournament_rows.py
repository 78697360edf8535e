"""The rows a tournament event commits with, and the one place that writes them.

Why typed rows: the desk used to hand ``(sql, params)`` tuples to ``save``,
so SQL lived in the application layer and any statement could ride along
with an event.  Now the desk says *what* commits with the event (a token it
hands out, a round's seating) and the recorder writes it here, inside the
events' transaction (:meth:`services.storage.recorder.LedgerRecorder._insert_events`):
a failed save stores neither the event nor its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from uuid import UUID


@dataclass(frozen=True)
class TokenGrant:
    """A bearer token the desk hands out once, stored as its hash."""

    token_hash: str
    tournament_id: UUID
    role: Literal["organiser", "player"]
    player_id: str | None = None


@dataclass(frozen=True)
class SeatTokens:
    """Which seats of a round's game a player holds."""

    player_id: str
    game_id: UUID
    seats: Any
    """As the round journal keeps them (a list of seat numbers)."""


@dataclass(frozen=True)
class RoundSeating:
    """A started round: its games and seats, and the end of its journal
    (:mod:`services.tournaments.rounds`), whose rows it deletes."""

    tournament_id: UUID
    round: int
    game_ids: tuple[UUID, ...]
    seats: tuple[SeatTokens, ...]
    next_due: datetime | None = None
    """When the next automatic round is due, if this round completed as it
    started (a round robin round of byes alone, once a player withdrew): no
    result will come to schedule it, so the round's own save does."""


TournamentRows = TokenGrant | RoundSeating


def write(curs: Any, rows: TournamentRows) -> None:
    if isinstance(rows, TokenGrant):
        curs.execute(
            "INSERT INTO tournament_tokens VALUES (%s, %s, %s, %s)",
            (rows.token_hash, rows.tournament_id, rows.role, rows.player_id),
        )
        return
    tid, number = rows.tournament_id, rows.round
    curs.executemany(
        "INSERT INTO tournament_games VALUES (%s, %s, %s)",
        [(game_id, tid, number) for game_id in rows.game_ids],
    )
    curs.executemany(
        "INSERT INTO tournament_seat_tokens VALUES (%s, %s, %s, %s, %s, NULL)",
        [(tid, s.player_id, s.game_id, number, s.seats) for s in rows.seats],
    )
    where = "WHERE tournament_id = %s AND round = %s"
    curs.execute(
        f"DELETE FROM tournament_pending_games {where} AND status = 'created'",
        (tid, number),
    )
    curs.execute(f"DELETE FROM tournament_round_intents {where}", (tid, number))
    # an automatic round's wait ends with the round it waited for
    curs.execute(
        "DELETE FROM tournament_round_schedule WHERE tournament_id = %s AND round <= %s",
        (tid, number),
    )
    if rows.next_due is not None:
        curs.execute(
            "INSERT INTO tournament_round_schedule (tournament_id, round, due_at)"
            " VALUES (%s, %s, %s)",
            (tid, number + 1, rows.next_due),
        )
