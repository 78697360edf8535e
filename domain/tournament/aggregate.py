"""The ``Tournament`` aggregate: registration, rounds and results as events.

Why a separate aggregate from ``Game``: a tournament has no hidden
information, no chance and no hash chain; it only orders facts (who entered,
who sat where, who finished where).  Games stay independent aggregates, and a
tournament refers to them by id.

The two-step round is deliberate: :meth:`Tournament.plan_round` computes the
next pairing without recording anything, the service creates one game per
table, and :meth:`Tournament.start_round` records the tables with their game
ids.  :meth:`Tournament.record_result` is idempotent (same game again: no-op,
``False``), which makes the results policy exactly-once under redelivery.

All invariants are checked in the command methods; each event's ``apply``
only folds the fact into a frozen :class:`TournamentState`, so replaying the
events rebuilds equal state.  Payload fields are str, int, dicts of JSON
values, tuples of those and small :class:`domain.contract.core.Model` values, so
:mod:`domain.tournament.codec` can store them as canonical JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate

from domain.contract.core import IllegalCommandError, InvalidCommandError, Model
from domain.contract.outcomes import is_competition_ranking
from domain.games import find_game
from domain.ledger.clocks import TimeControl, check_abort_limit
from domain.ledger.spectator import parse_delay
from domain.tournament.guards import (
    check_can_register,
    check_can_start,
    check_can_withdraw,
    check_not_finished,
    check_round_complete,
)
from domain.tournament.pairing import Pairing, PlayerId
from domain.tournament.rules import check_player_id, parse_creation, parse_round
from domain.tournament.schedule import AutomaticRounds, next_round_at
from domain.tournament.standings import ABORTED, StandingRow
from domain.tournament.state import (
    RoundRecord,
    TableAssignment,
    TournamentState,
)


class Tournament(Aggregate):
    """A tournament of one game type, rebuilt by replaying its events."""

    class Created(Aggregate.Created):
        name: str
        game_type: str
        setup: dict[str, Any]
        format: str
        rounds: int
        table_size: int
        spectator_delay: dict[str, int] | None = None
        """Every game's spectator delay (:mod:`domain.ledger.spectator`); absent in
        tournaments created before it existed."""
        time_control: dict[str, Any] | None = None
        """Every game's clock and no-show window (:mod:`domain.ledger.clocks`);
        absent in tournaments created before clocks."""
        automatic_rounds: dict[str, Any] | None = None
        """Rounds that start themselves (:mod:`domain.tournament.schedule`);
        absent when the organiser starts each round."""

    class PlayerRegistered(Aggregate.Event):
        player_id: str

        def apply(self, tournament: Tournament) -> None:
            tournament.state = tournament.state.registered(self.player_id)

    class PlayerWithdrawn(Aggregate.Event):
        player_id: str

        def apply(self, tournament: Tournament) -> None:
            tournament.state = tournament.state.withdrew(self.player_id)

    class RoundStarted(Aggregate.Event):
        round: int
        tables: tuple[TableAssignment, ...]
        byes: tuple[str, ...]

        def apply(self, tournament: Tournament) -> None:
            tournament.state = tournament.state.started(
                self.round, self.tables, self.byes
            )
            if not self.tables:  # byes alone: complete as it starts
                tournament.round_completed_at = self.timestamp

    class ResultRecorded(Aggregate.Event):
        round: int
        game_id: str
        ranks: tuple[int, ...]
        termination: str = ""
        """How the game ended; absent in results recorded before it was kept."""
        absent: tuple[int, ...] = ()
        """The seats that never moved (``Outcome.absent``); empty in results
        recorded before it was kept."""

        def apply(self, tournament: Tournament) -> None:
            state = tournament.state.recorded(
                self.round, self.game_id, self.ranks, self.termination, self.absent
            )
            tournament.state = state
            if not state.is_round_in_progress:
                tournament.round_completed_at = self.timestamp

    class GameReplayed(Aggregate.Event):
        round: int
        game_id: str
        new_game_id: str

        def apply(self, tournament: Tournament) -> None:
            tournament.state = tournament.state.replayed(
                self.round, self.game_id, self.new_game_id
            )

    class TournamentFinished(Aggregate.Event):
        def apply(self, tournament: Tournament) -> None:
            tournament.state = tournament.state.ended()

    def __init__(
        self,
        name: str,
        game_type: str,
        setup: dict[str, Any],
        format: str,
        rounds: int,
        table_size: int,
        spectator_delay: dict[str, int] | None = None,
        time_control: dict[str, Any] | None = None,
        automatic_rounds: dict[str, Any] | None = None,
    ) -> None:
        self.automatic_rounds = AutomaticRounds.parse(automatic_rounds)
        """The next round starts by itself this long after the last completed."""
        self.round_completed_at: datetime | None = None
        """When the last round completed (its last result was recorded)."""
        self.spectator_delay = spectator_delay
        """Passed to every game this tournament creates."""
        self.time_control = time_control
        """Passed to every game this tournament creates."""
        self.state = TournamentState(
            name=name,
            game_type=game_type,
            setup=dict(setup),
            format=format,  # type: ignore[arg-type]
            rounds=rounds,
            table_size=table_size,
        )

    # ------------------------------------------------------------ creation

    @classmethod
    def create(
        cls,
        name: str,
        game_type: str,
        format: str,
        rounds: int,
        table_size: int = 2,
        setup: dict[str, Any] | None = None,
        tournament_id: Any = None,
        spectator_delay: Any = None,
        time_control: TimeControl | None = None,
        automatic_rounds: Any = None,
    ) -> Tournament:
        """Create a tournament.

        ``round_robin`` and ``swiss`` need ``table_size == 2``; ``swiss_ffa``
        needs 3-5.  A round robin's ``rounds`` is 0 ("the whole schedule") or
        must equal the schedule's length when round 1 starts.  ``setup`` holds
        the game's other setup fields and is validated for every table size
        that can occur.  ``spectator_delay`` (``{"moves": n}`` or
        ``{"seconds": s}``) is given to every game the tournament creates.
        ``automatic_rounds`` (``{"gap_seconds": n}``) starts each round after
        the first by itself (:mod:`domain.tournament.schedule`).

        :raises InvalidCommandError: on any malformed argument.
        """
        fields = parse_creation(name, game_type, format, rounds, table_size, setup)
        delay = parse_delay(spectator_delay)
        if delay is not None:
            fields["spectator_delay"] = delay.to_record()
        if time_control is not None and time_control.to_record() != {"kind": "none"}:
            check_abort_limit(time_control, smallest_table(game_type, table_size))
            fields["time_control"] = time_control.to_record()
        automatic = AutomaticRounds.parse(automatic_rounds)
        if automatic is not None:
            fields["automatic_rounds"] = automatic.model_dump()
        return cls._create(cls.Created, id=tournament_id or cls.create_id(), **fields)

    # ------------------------------------------------------------ commands

    def register(self, player_id: PlayerId) -> None:
        """Register a player before round 1.

        :raises InvalidCommandError: on an empty player id.
        :raises IllegalCommandError: ``tournament.registration-closed``,
            ``tournament.already-registered``.
        """
        check_player_id(player_id)
        check_can_register(self.state, player_id)
        self.trigger_event(self.PlayerRegistered, player_id=player_id)

    def withdraw(self, player_id: PlayerId) -> None:
        """Withdraw a player: not paired in later rounds; past games still count.

        :raises IllegalCommandError: ``tournament.not-registered``,
            ``tournament.already-withdrawn``, ``tournament.finished``.
        """
        check_player_id(player_id)
        check_can_withdraw(self.state, player_id)
        self.trigger_event(self.PlayerWithdrawn, player_id=player_id)

    def plan_round(self) -> Pairing:
        """The next round's pairing, computed from the current state, not recorded.

        :raises IllegalCommandError: ``tournament.finished``,
            ``tournament.round-incomplete``, ``tournament.no-rounds-left``,
            ``tournament.not-enough-players``, ``tournament.round-robin-rounds``.
        """
        check_can_start(self.state)
        return self.state.plan()

    def start_round(
        self, tables: Sequence[TableAssignment], byes: Sequence[PlayerId] = ()
    ) -> int:
        """Record the next round: its tables (with their games) and byes.

        The tables need not equal :meth:`plan_round` (an organiser may pair by
        hand), but every active player must be seated or have a bye exactly
        once, tables must be numbered 1..k, fit the table sizes, and use fresh
        game ids.  Returns the round number.

        :raises InvalidCommandError: when the tables or byes are malformed.
        :raises IllegalCommandError: as :meth:`plan_round`.
        """
        check_can_start(self.state)
        tables, byes = parse_round(self.state, tables, byes)
        round_ = self.state.current_round + 1
        self.trigger_event(self.RoundStarted, round=round_, tables=tables, byes=byes)
        self._finish_if_complete()
        return round_

    def record_result(
        self,
        game_id: str,
        ranks: Sequence[int],
        termination: str = "",
        absent: Sequence[int] = (),
    ) -> bool:
        """Record a finished table's ranks (``ranks[seat]``, 1 is best, ties share).

        ``absent``: the seats that never moved, which score nothing.  An
        ``aborted`` game is recorded but neither scored nor counted as the
        table's result: the round waits for the organiser to replay or
        reschedule it (see docs/endings.md).

        Idempotent: the same game again is a no-op returning ``False``.  The
        last result of the last round finishes the tournament.

        :raises InvalidCommandError: for an unknown game or malformed ranks.
        :raises IllegalCommandError: ``tournament.result-conflict`` when the
            game already has *different* ranks.
        """
        found = self.state.find_table(str(game_id))
        if found is None and self.state.was_replaced(str(game_id)):
            return False  # an aborted game already replayed: its result is void
        if found is None:
            raise InvalidCommandError(
                f"game {game_id} is not a table of this tournament"
            )
        record, table = found
        ranks = tuple(int(r) for r in ranks)
        if len(ranks) != len(table.players) or not is_competition_ranking(ranks):
            raise InvalidCommandError(f"ranks {ranks} do not rank the table's players")
        previous = record.result_of(table.game_id)
        if previous is not None:
            if previous.ranks != ranks:
                raise IllegalCommandError(
                    "tournament.result-conflict",
                    f"game {game_id} already has ranks {previous.ranks}",
                )
            return False
        self.trigger_event(
            self.ResultRecorded,
            round=record.round,
            game_id=table.game_id,
            ranks=ranks,
            termination=termination,
            absent=tuple(int(s) for s in absent),
        )
        self._finish_if_complete()
        return True

    def check_replay(self, game_id: str) -> tuple[RoundRecord, TableAssignment]:
        """Whether ``game_id`` may be replayed (:meth:`replay`); its round and table.

        :raises IllegalCommandError, InvalidCommandError: as :meth:`replay`.
        """
        check_not_finished(self.state)
        found = self.state.find_table(str(game_id))
        if found is None and self.state.was_replaced(str(game_id)):
            raise IllegalCommandError(
                "tournament.already-replayed", f"game {game_id} was replayed already"
            )
        if found is None:
            raise InvalidCommandError(
                f"game {game_id} is not a table of this tournament",
                violations=(("game_id", "not a table of this tournament"),),
            )
        record, table = found
        result = record.result_of(table.game_id)
        if record.round != self.state.current_round or (
            result is not None and result.termination != ABORTED
        ):
            raise IllegalCommandError(
                "tournament.not-aborted",
                f"game {game_id} is not an aborted game of the current round",
            )
        return record, table

    def replay(self, game_id: str, new_game_id: str) -> TableAssignment:
        """Replace an aborted game of the current round with ``new_game_id``,
        for the same players in the same seats; returns the new table.

        :raises IllegalCommandError: ``tournament.finished``,
            ``tournament.not-aborted`` (the game has a result that counts, or
            is not of the current round), ``tournament.already-replayed``.
        :raises InvalidCommandError: for an unknown game or a used new id.
        """
        record, table = self.check_replay(game_id)
        if not new_game_id or self.state.find_table(str(new_game_id)):
            raise InvalidCommandError("the replay needs a new game id")
        self.trigger_event(
            self.GameReplayed,
            round=record.round,
            game_id=table.game_id,
            new_game_id=str(new_game_id),
        )
        return table.model_copy(update={"game_id": str(new_game_id)})

    def finish(self) -> None:
        """End the tournament early, between rounds.

        :raises IllegalCommandError: ``tournament.finished``,
            ``tournament.round-incomplete``.
        """
        check_not_finished(self.state)
        check_round_complete(self.state)
        self.trigger_event(self.TournamentFinished)

    # ------------------------------------------------------------ queries

    def standings(self) -> tuple[StandingRow, ...]:
        """Current standings (see :mod:`domain.tournament.standings`)."""
        return self.state.standings()

    @property
    def is_finished(self) -> bool:
        return self.state.finished

    @property
    def next_round_at(self) -> datetime | None:
        """When the next round starts by itself (``None``: not automatic, a
        round is running, or none is left)."""
        state = self.state
        return next_round_at(
            self.automatic_rounds,
            self.round_completed_at,
            finished=state.finished,
            round_in_progress=state.is_round_in_progress,
            rounds_left=state.total_rounds - state.current_round,
        )

    def game_setup(self, players: int) -> Model:
        """The setup of a game at a table of ``players`` (the service creates it)."""
        ruleset = find_game(self.state.game_type)
        return ruleset.setup_model.model_validate(
            {**self.state.setup, "players": players}
        )

    # ------------------------------------------------------------ internals

    def _finish_if_complete(self) -> None:
        if not self.state.finished and self.state.is_all_played:
            self.trigger_event(self.TournamentFinished)


def smallest_table(game_type: str, table_size: int) -> int:
    """The fewest seats a game of this tournament can have: a short table of
    a multi-player format seats the game's minimum (at least 2)."""
    if table_size == 2:
        return 2
    return max(2, find_game(game_type).min_players)
