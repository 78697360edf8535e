"""Argument checks for tournament commands (the "malformed input" half).

Why apart from the aggregate: these checks are pure functions of their
arguments (and the state), so they read as a list of rules and keep the
aggregate about recording facts.  Each raises
:class:`~domain.contract.core.InvalidCommandError`; the wrong-state rules
(:class:`~domain.contract.core.IllegalCommandError`) are in :mod:`.guards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from domain.contract.core import InvalidCommandError
from domain.games import UnknownGameError, find_game
from domain.tournament.pairing import Pairing, PlayerId, is_valid_round
from domain.tournament.state import FORMATS, TableAssignment

if TYPE_CHECKING:
    from domain.contract.core import Ruleset
    from domain.tournament.state import TournamentState


def check_player_id(player_id: Any) -> None:
    """:raises InvalidCommandError: unless ``player_id`` is a non-empty string."""
    if not isinstance(player_id, str) or not player_id.strip():
        raise InvalidCommandError("player_id must be a non-empty string")


def parse_creation(
    name: Any,
    game_type: str,
    format: str,
    rounds: Any,
    table_size: Any,
    setup: dict[str, Any] | None,
) -> dict[str, Any]:
    """The ``Created`` event's fields, validated and normalised.

    :raises InvalidCommandError: on any malformed argument.
    """
    if not isinstance(name, str) or not name.strip():
        raise InvalidCommandError("a tournament needs a name")
    if format not in FORMATS:
        raise InvalidCommandError(f"format must be one of {FORMATS}")
    if not isinstance(table_size, int) or not 2 <= table_size <= 5:
        raise InvalidCommandError("table_size must be 2 to 5")
    if (format == "swiss_ffa") != (table_size > 2):
        raise InvalidCommandError(
            "swiss_ffa needs table_size 3-5; other formats need 2"
        )
    if not isinstance(rounds, int) or rounds < (0 if format == "round_robin" else 1):
        raise InvalidCommandError("rounds must be a positive number")
    try:
        ruleset = find_game(game_type)
    except UnknownGameError as error:
        raise InvalidCommandError(str(error)) from None
    if not ruleset.min_players <= table_size <= ruleset.max_players:
        raise InvalidCommandError(
            f"{ruleset.name} seats {ruleset.min_players}-{ruleset.max_players} players"
        )
    return {
        "name": name.strip(),
        "game_type": ruleset.name,
        "setup": _parse_setup(ruleset, dict(setup or {}), table_size),
        "format": format,
        "rounds": rounds,
        "table_size": table_size,
    }


def _parse_setup(
    ruleset: Ruleset[Any], setup: dict[str, Any], table_size: int
) -> dict[str, Any]:
    """Check ``setup`` builds a game at every possible table size; return it as JSON."""
    if "players" in setup:
        raise InvalidCommandError("setup must not set players; tables decide that")
    low = 2 if table_size == 2 else max(2, ruleset.min_players)
    dumped: dict[str, Any] = {}
    for players in range(low, table_size + 1):
        try:
            model = ruleset.setup_model.model_validate({**setup, "players": players})
            # the content pack and characters are checked where the game's
            # state is built: every round's StartRound would fail there
            ruleset.initial_state(model)
        except (ValidationError, TypeError, ValueError) as error:
            text = f"invalid setup for {players} players: {error}"
            raise InvalidCommandError(
                text, violations=(("setup_json", text),)
            ) from None
        dumped = model.model_dump(mode="json")
    return {key: dumped[key] for key in setup}


def parse_round(
    state: TournamentState, tables: Sequence[Any], byes: Sequence[PlayerId]
) -> tuple[tuple[TableAssignment, ...], tuple[PlayerId, ...]]:
    """Validate a round's tables (``TableAssignment`` or dicts) and byes.

    Every active player is seated or has a bye exactly once; tables are
    numbered 1..k, seat the tournament's table sizes and use fresh game ids.

    :raises InvalidCommandError: when any of that fails.
    """
    try:
        parsed = tuple(
            t if isinstance(t, TableAssignment) else TableAssignment.model_validate(t)
            for t in tables
        )
    except ValidationError as error:
        raise InvalidCommandError(f"malformed table: {error}") from None
    byes = tuple(byes)
    pairing = Pairing(tables=tuple(t.players for t in parsed), byes=byes)
    if not is_valid_round(pairing, state.active_players):
        raise InvalidCommandError(
            "seat every active player, or give a bye, exactly once"
        )
    if [t.table for t in parsed] != list(range(1, len(parsed) + 1)):
        raise InvalidCommandError("tables must be numbered 1, 2, ... in order")
    low, high = state.min_table_size, state.table_size
    if any(not low <= len(t.players) <= high for t in parsed):
        raise InvalidCommandError(f"every table must seat {low}-{high} players")
    ids = [t.game_id for t in parsed]
    fresh = (
        all(ids)
        and len(set(ids)) == len(ids)
        and not any(state.find_table(i) for i in ids)
    )
    if not fresh:
        raise InvalidCommandError("every table needs its own new game id")
    return parsed, byes
