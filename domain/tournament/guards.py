"""Wrong-state checks for tournament commands (the "not now" half).

Why apart from the aggregate: like :mod:`domain.tournament.rules` (the
malformed-input half, :class:`~domain.contract.core.InvalidCommandError`), these are
pure functions of the state, so they read as one list of *when* each command
may run.  Each raises :class:`~domain.contract.core.IllegalCommandError` with a stable
code a client can branch on; the aggregate only decides which guards a
command needs and records the fact.
"""

from __future__ import annotations

from domain.contract.core import IllegalCommandError
from domain.tournament.pairing import PlayerId, round_robin_schedule
from domain.tournament.state import TournamentState


def check_can_register(state: TournamentState, player_id: PlayerId) -> None:
    """:raises IllegalCommandError: ``tournament.registration-closed``,
    ``tournament.already-registered``."""
    if state.round_records or state.finished:
        raise IllegalCommandError(
            "tournament.registration-closed",
            "registration is closed: round 1 has started",
        )
    if player_id in state.players:
        raise IllegalCommandError(
            "tournament.already-registered", f"{player_id} is already registered"
        )


def check_can_withdraw(state: TournamentState, player_id: PlayerId) -> None:
    """:raises IllegalCommandError: ``tournament.finished``,
    ``tournament.not-registered``, ``tournament.already-withdrawn``."""
    check_not_finished(state)
    if player_id not in state.players:
        raise IllegalCommandError(
            "tournament.not-registered", f"{player_id} is not registered"
        )
    if player_id in state.withdrawn:
        raise IllegalCommandError(
            "tournament.already-withdrawn", f"{player_id} has withdrawn"
        )


def check_not_finished(state: TournamentState) -> None:
    """:raises IllegalCommandError: ``tournament.finished``."""
    if state.finished:
        raise IllegalCommandError("tournament.finished", "the tournament has finished")


def check_round_complete(state: TournamentState) -> None:
    """:raises IllegalCommandError: ``tournament.round-incomplete``."""
    if state.is_round_in_progress:
        raise IllegalCommandError(
            "tournament.round-incomplete",
            f"round {state.current_round} still has games without results",
        )


def check_can_start(state: TournamentState) -> None:
    """Whether the next round may be planned or started now.

    :raises IllegalCommandError: ``tournament.finished``,
        ``tournament.round-incomplete``, ``tournament.not-enough-players``,
        ``tournament.round-robin-rounds``, ``tournament.no-rounds-left``.
    """
    check_not_finished(state)
    check_round_complete(state)
    if len(state.active_players) < 2:
        raise IllegalCommandError(
            "tournament.not-enough-players", "need 2 active players"
        )
    if state.format == "round_robin":
        scheduled = len(round_robin_schedule(state.round_robin_players))
        if state.rounds not in (0, scheduled):
            raise IllegalCommandError(
                "tournament.round-robin-rounds",
                f"a round robin of these players has {scheduled} rounds, not {state.rounds}",
            )
    if state.current_round >= state.total_rounds:
        raise IllegalCommandError(
            "tournament.no-rounds-left",
            f"all {state.total_rounds} rounds have started",
        )
