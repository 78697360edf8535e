"""Seating a tournament round crash-safely: the journal of the round's games.

Its own module because it is the one part of a round start that reaches
across two stores without a transaction spanning them: each
``GameLedger.create_game`` commits on its own, and the round is recorded
later in the desk's.  The desk (:meth:`TournamentDesk.start_round
<services.tournaments.desk.TournamentDesk.start_round>`) serialises round starts;
:class:`RoundJournal` makes an interrupted start safe to retry:

* Each game is journalled (``tournament_pending_games``, with who sits where)
  right after it is created, and the round's intent
  (``tournament_round_intents``) before the first one.  A retry of the same
  round adopts the journalled games table by table instead of creating more;
  the ``created`` journal rows and the intent are deleted in the transaction
  that records the round (:meth:`RoundJournal.seat` returns the round's
  :class:`~services.storage.tournament_rows.RoundSeating`, which does it).  Pairing is deterministic, so the retry normally seats the
  same players; a journalled game whose table now seats others is kept as
  ``abandoned``.
* A crash in the short gap between a game's commit and its journal row leaves
  a game no one has tokens for; the retry finds it exactly (its entropy names
  tournament, round and table, among the ledger's games created since the
  intent) and records it as ``lost``.  Closing that gap needs ``create_game``
  to take extra side effects, so the journal row commits with the game.

Why not deterministic (uuid5) game ids: ``create_game`` chooses the id and the
seat tokens, and a re-created game with a fresh seed and tokens would not be
the same game anyway; adopting needs the tokens, which only the journal keeps.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.games import find_game
from domain.ledger.clocks import TimeControl
from domain.tournament.aggregate import Tournament
from domain.tournament.pairing import Pairing
from domain.tournament.state import TableAssignment
from services.ledger.application import GameLedger
from services.storage.tournament_rows import RoundSeating, SeatTokens
from services.storage.tournament_store import PENDING_STATUSES, TournamentStore

log = logging.getLogger("services.tournaments.desk")
"""The desk's logger: orphaned games are reported where they always were."""


class RoundJournal:
    """Creates, adopts and accounts for the games of one round being started."""

    def __init__(self, store: TournamentStore, ledger: GameLedger) -> None:
        self.store = store
        self.ledger = ledger

    def seat(
        self, tournament: Tournament, plan: Pairing, number: int
    ) -> tuple[list[TableAssignment], RoundSeating]:
        """Round ``number``'s tables with their games, and the rows recording them.

        Call it under the tournament's lock; the seating must commit with the
        round's event.
        """
        tournament_id = tournament.id
        since, retried = self.store.begin_round(tournament_id, number)
        pending = self._pending_games(tournament_id, number)
        tables: list[TableAssignment] = []
        game_ids: list[UUID] = []
        seats: list[SeatTokens] = []
        for index, players in enumerate(plan.tables, start=1):
            players = tuple(players)
            row = pending.pop(index, None)
            if row is not None and tuple(row["players"]) != players:
                self._set_status(row["game_id"], "abandoned")
                row = None
            if row is None:
                if retried:
                    self._find_lost(tournament, number, index, players, since)
                row = self._create_game(tournament, number, index, players)
            game_id, tokens = row["game_id"], row["tokens"]
            game_ids.append(game_id)
            tables.append(
                TableAssignment(table=index, players=players, game_id=str(game_id))
            )
            seats.extend(
                SeatTokens(players[t["player"]], game_id, t["seats"]) for t in tokens
            )
        for row in pending.values():
            self._set_status(row["game_id"], "abandoned")
        return tables, RoundSeating(
            tournament_id, number, tuple(game_ids), tuple(seats)
        )

    def replay(
        self, tournament: Tournament, game_id: str, replays: int
    ) -> tuple[UUID, RoundSeating]:
        """A new game for the table of aborted ``game_id`` (same players,
        seats, setup and clock), and the rows recording it.

        Journalled like a round's game, and adopted the same way: a retry
        after a crash between the new game's journal row and the saved
        replay takes the journalled game instead of creating another (the
        round's own rows were deleted when the round was recorded, so a
        ``created`` row of a running round can only be a replay's).
        """
        found = tournament.state.find_table(game_id)
        if found is None:  # the aggregate refuses it first; kept for mypy
            raise ValueError(game_id)
        record, table = found
        number, index, players = record.round, table.table, table.players
        journalled = self._pending_games(tournament.id, number).pop(index, None)
        if journalled is not None and tuple(journalled["players"]) == players:
            adopted = UUID(str(journalled["game_id"]))
            return adopted, RoundSeating(
                tournament.id,
                number,
                (adopted,),
                tuple(
                    SeatTokens(players[t["player"]], adopted, t["seats"])
                    for t in journalled["tokens"]
                ),
            )
        created = self.ledger.create_game(
            tournament.state.game_type,
            tournament.game_setup(len(players)),
            entropy=(f"{_entropy(tournament.id, number, index)}:replay:{replays}",),
            player_ids=players,
            spectator_delay=tournament.spectator_delay,
            time_control=TimeControl.model_validate(tournament.time_control)
            if getattr(tournament, "time_control", None)
            else None,
        )
        tokens: list[dict[str, Any]] = [
            {"player": t.player, "seats": list(t.seats)} for t in created.tokens
        ]
        self._journal_game(
            created.game_id, tournament.id, number, index, players, tokens
        )
        seats = tuple(
            SeatTokens(players[t.player], created.game_id, list(t.seats))
            for t in created.tokens
        )
        return created.game_id, RoundSeating(
            tournament.id, number, (created.game_id,), seats
        )

    def _pending_games(
        self, tournament_id: UUID, number: int
    ) -> dict[int, dict[str, Any]]:
        """Journalled, not yet recorded games of a round, by table (extras abandoned)."""
        found: dict[int, dict[str, Any]] = {}
        for row in self.store.pending_games(tournament_id, number):
            if row["table_no"] in found:
                self._set_status(row["game_id"], "abandoned")
            else:
                found[row["table_no"]] = row
        return found

    def _create_game(
        self, tournament: Tournament, number: int, index: int, players: tuple[str, ...]
    ) -> dict[str, Any]:
        created = self.ledger.create_game(
            tournament.state.game_type,
            tournament.game_setup(len(players)),
            entropy=(_entropy(tournament.id, number, index),),
            player_ids=players,
            spectator_delay=tournament.spectator_delay,
            time_control=TimeControl.model_validate(tournament.time_control)
            if getattr(tournament, "time_control", None)
            else None,
        )
        tokens = [{"player": t.player, "seats": list(t.seats)} for t in created.tokens]
        self._journal_game(
            created.game_id, tournament.id, number, index, players, tokens
        )
        return {"game_id": created.game_id, "tokens": tokens}

    def _journal_game(
        self,
        game_id: UUID,
        tournament_id: UUID,
        number: int,
        index: int,
        players: tuple[str, ...],
        tokens: list[dict[str, Any]],
    ) -> None:
        self.store.journal_game(game_id, tournament_id, number, index, players, tokens)

    def _set_status(self, game_id: UUID, status: str) -> None:
        log.warning(
            "tournament game %s is an orphan: %s", game_id, PENDING_STATUSES[status]
        )
        self.store.set_status(game_id, status)

    def _find_lost(
        self,
        tournament: Tournament,
        number: int,
        index: int,
        players: tuple[str, ...],
        since: datetime,
    ) -> None:
        """Record games a crashed attempt created for this table but never journalled."""
        candidates = self.store.unjournalled_games(
            find_game(tournament.state.game_type).name, players, since
        )
        expected = (_entropy(tournament.id, number, index),)
        for game_id in candidates:
            if self.ledger.load(game_id).entropy != expected:
                continue  # the same players' own game, not ours
            self.store.journal_game(
                game_id, tournament.id, number, index, players, None, "lost"
            )
            log.warning(
                "tournament game %s is an orphan: %s", game_id, PENDING_STATUSES["lost"]
            )


def _entropy(tournament_id: UUID, number: int, index: int) -> str:
    """A tournament game's entropy string, which also identifies it as that table's game."""
    return f"tournament:{tournament_id}:round:{number}:table:{index}"
