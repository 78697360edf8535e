"""The tournament's state: an immutable value rebuilt from its events.

Why a frozen model instead of attributes on the aggregate: replaying the
events must rebuild *equal* state (a property the tests check), and a single
frozen value makes that one ``==``.  Every derived view (the next pairing, the
standings) is a pure function of this value, so ``plan_round`` can be called
freely and an auditor can recompute any round from the log.
"""

from __future__ import annotations

from typing import Any, Literal

from domain.contract.core import Model
from domain.games import find_game
from domain.tournament.ffa import ffa_pairing
from domain.tournament.pairing import (
    Pairing,
    PlayerId,
    Table,
    round_robin_schedule,
    swiss_pairing,
)
from domain.tournament.standings import (
    ABORTED,
    GameResult,
    StandingRow,
    compute_standings,
)

Format = Literal["round_robin", "swiss", "swiss_ffa"]
FORMATS: tuple[str, ...] = ("round_robin", "swiss", "swiss_ffa")


class TableAssignment(Model):
    """One table of a started round: its number, players in seat order, and game."""

    table: int
    """1-based table number within the round (1 is the top table)."""
    players: tuple[PlayerId, ...]
    """Player ids in seat order: ``players[seat]``."""
    game_id: str
    """The ledger game created for this table."""


class RecordedResult(Model):
    """A finished table: the game and each seat's finishing rank."""

    game_id: str
    ranks: tuple[int, ...]
    termination: str = ""
    """How the game ended (empty: recorded before it was kept)."""
    absent: tuple[int, ...] = ()
    """The seats that never moved (``Outcome.absent``): they score nothing."""

    @property
    def is_scored(self) -> bool:
        """Whether the result counts: an aborted game does not (it awaits a
        replay or a new date from the organiser)."""
        return self.termination != ABORTED


class RoundRecord(Model):
    """A started round: its tables, its byes and the results so far."""

    round: int
    tables: tuple[TableAssignment, ...]
    byes: tuple[PlayerId, ...]
    results: tuple[RecordedResult, ...] = ()
    replaced: tuple[str, ...] = ()
    """Aborted games of this round the organiser replaced with new ones."""

    @property
    def is_complete(self) -> bool:
        """Whether every table of the round has a result that counts (an
        aborted table waits for the organiser to replay or reschedule it)."""
        return sum(1 for r in self.results if r.is_scored) == len(self.tables)

    @property
    def awaiting_replay(self) -> tuple[str, ...]:
        """The games of this round that were aborted: each is to be replayed
        or rescheduled by the organiser, never scored."""
        return tuple(r.game_id for r in self.results if not r.is_scored)

    def result_of(self, game_id: str) -> RecordedResult | None:
        return next((r for r in self.results if r.game_id == game_id), None)


class TournamentState(Model):
    """Everything the events say about one tournament."""

    name: str
    game_type: str
    setup: dict[str, Any]
    """Extra setup fields for every game (``players`` is set per table)."""
    format: Format
    rounds: int
    """Configured rounds; 0 for a round robin means "as many as the schedule"."""
    table_size: int
    players: tuple[PlayerId, ...] = ()
    """Registered players in registration order (the seed order)."""
    withdrawn: tuple[PlayerId, ...] = ()
    round_records: tuple[RoundRecord, ...] = ()
    finished: bool = False

    # ------------------------------------------------------------ queries

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        """Registered and not withdrawn, in registration order."""
        return tuple(p for p in self.players if p not in self.withdrawn)

    @property
    def status(self) -> str:
        """``"registering"`` before round 1, ``"running"``, or ``"finished"``."""
        if self.finished:
            return "finished"
        return "running" if self.round_records else "registering"

    @property
    def current_round(self) -> int:
        """The last started round (0 before the first)."""
        return len(self.round_records)

    @property
    def is_round_in_progress(self) -> bool:
        return bool(self.round_records) and not self.round_records[-1].is_complete

    @property
    def min_table_size(self) -> int:
        """The smallest table a game may be played at: the game's minimum, at least 2."""
        if self.table_size == 2:
            return 2
        return max(2, find_game(self.game_type).min_players)

    @property
    def round_robin_players(self) -> tuple[PlayerId, ...]:
        """The round robin's field: round 1's participants (or, before it, the active)."""
        if not self.round_records:
            return self.active_players
        first = self.round_records[0]
        there = {p for t in first.tables for p in t.players} | set(first.byes)
        return tuple(p for p in self.players if p in there)

    @property
    def total_rounds(self) -> int:
        """The number of rounds this tournament will play."""
        if self.format == "round_robin" and self.rounds == 0:
            return len(round_robin_schedule(self.round_robin_players))
        return self.rounds

    @property
    def is_all_played(self) -> bool:
        """Whether the last configured round has started and all its results are in."""
        return self.current_round >= self.total_rounds and not self.is_round_in_progress

    def history(self) -> tuple[Table, ...]:
        """Every table started so far, in round and table order."""
        return tuple(t.players for r in self.round_records for t in r.tables)

    def byes(self) -> tuple[PlayerId, ...]:
        """One entry per bye given so far."""
        return tuple(p for r in self.round_records for p in r.byes)

    def results(self) -> tuple[GameResult, ...]:
        """Every recorded game result, with its table's players in seat order."""
        out: list[GameResult] = []
        for record in self.round_records:
            seats = {t.game_id: t.players for t in record.tables}
            out.extend(
                GameResult(
                    players=seats[r.game_id],
                    ranks=r.ranks,
                    termination=r.termination,
                    absent=r.absent,
                )
                for r in record.results
                if r.is_scored
            )
        return tuple(out)

    def was_replaced(self, game_id: str) -> bool:
        """Whether ``game_id`` was an aborted game the organiser replayed."""
        return any(game_id in r.replaced for r in self.round_records)

    def find_table(self, game_id: str) -> tuple[RoundRecord, TableAssignment] | None:
        for record in self.round_records:
            for table in record.tables:
                if table.game_id == game_id:
                    return record, table
        return None

    def standings(self) -> tuple[StandingRow, ...]:
        """Standings from every recorded result and bye (byes of started rounds count)."""
        return compute_standings(
            self.players, self.results(), self.byes(), self.table_size, self.withdrawn
        )

    def plan(self) -> Pairing:
        """The pairing the next round would get, from this state alone (no checks)."""
        active = self.active_players
        if self.format == "round_robin":
            scheduled = round_robin_schedule(self.round_robin_players)[
                self.current_round
            ]
            tables = [t for t in scheduled.tables if all(p in active for p in t)]
            # An opponent who withdrew leaves a bye behind (scored as a win).
            left = [
                p for t in scheduled.tables if t not in tables for p in t if p in active
            ]
            byes = [p for p in scheduled.byes if p in active] + left
            return Pairing(tables=tuple(tables), byes=tuple(byes))
        scores = {row.player_id: row.points for row in self.standings()}
        if self.format == "swiss":
            return swiss_pairing(active, scores, self.history(), self.byes())
        return ffa_pairing(
            active,
            scores,
            self.table_size,
            self.history(),
            self.byes(),
            self.min_table_size,
        )

    # ------------------------------------------------------------ evolution

    def registered(self, player_id: PlayerId) -> TournamentState:
        return self.model_copy(update={"players": (*self.players, player_id)})

    def withdrew(self, player_id: PlayerId) -> TournamentState:
        return self.model_copy(update={"withdrawn": (*self.withdrawn, player_id)})

    def started(
        self,
        round_: int,
        tables: tuple[TableAssignment, ...],
        byes: tuple[PlayerId, ...],
    ) -> TournamentState:
        record = RoundRecord(round=round_, tables=tables, byes=byes)
        return self.model_copy(update={"round_records": (*self.round_records, record)})

    def recorded(
        self,
        round_: int,
        game_id: str,
        ranks: tuple[int, ...],
        termination: str = "",
        absent: tuple[int, ...] = (),
    ) -> TournamentState:
        records = list(self.round_records)
        old = records[round_ - 1]
        result = RecordedResult(
            game_id=game_id, ranks=ranks, termination=termination, absent=absent
        )
        records[round_ - 1] = old.model_copy(update={"results": (*old.results, result)})
        return self.model_copy(update={"round_records": tuple(records)})

    def replayed(self, round_: int, game_id: str, new_game_id: str) -> TournamentState:
        """Round ``round_``'s table of ``game_id`` plays again as ``new_game_id``."""
        records = list(self.round_records)
        old = records[round_ - 1]
        tables = tuple(
            t.model_copy(update={"game_id": new_game_id}) if t.game_id == game_id else t
            for t in old.tables
        )
        records[round_ - 1] = old.model_copy(
            update={
                "tables": tables,
                "results": tuple(r for r in old.results if r.game_id != game_id),
                "replaced": (*old.replaced, game_id),
            }
        )
        return self.model_copy(update={"round_records": tuple(records)})

    def ended(self) -> TournamentState:
        return self.model_copy(update={"finished": True})
