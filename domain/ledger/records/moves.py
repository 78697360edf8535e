"""A game's own event read straight from its stored bytes, for readers of the log.

Why not :func:`~domain.ledger.records.canonical.load` then
:func:`~domain.ledger.records.bodies.decode_payload`: a view replaying whole games
(the statistics view evolves every finished game to its final state) spent
about half its time parsing each record into dicts, guarding it against long
integers and then validating the payload dict again.  pydantic validates the
payload from the JSON bytes in one pass, reads integers of any size exactly
(so the 19-digit guard is not needed) and skips the fields a reader does not
ask for (hashes, the command); with ``payload=False`` only the decision and
actor are built.  The result equals the two-step decode (a unit test replays
every game's events through both).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it on Python < 3.12

from domain.games import find_game

if TYPE_CHECKING:
    from domain.contract.core import Event, Ruleset

P = TypeVar("P")


class _Head(TypedDict):
    actor: int | None
    decision: int


class _Body(TypedDict, Generic[P]):
    actor: int | None
    decision: int
    payload: P


class _Record(TypedDict, Generic[P]):
    body: P


class Move(NamedTuple):
    """What a reader of a game's log needs from one of its events."""

    actor: int | None
    """The seat that decided, or ``None`` for an event no seat caused."""
    decision: int
    """The decision point the event belongs to (its first event has version ``decision + 1``)."""
    payload: Event | None
    """The game's own event; ``None`` when it was not asked for."""


_HEAD: TypeAdapter[_Record[_Head]] = TypeAdapter(_Record[_Head])


@cache
def _adapter(event_type: type[Event]) -> TypeAdapter[Any]:
    return TypeAdapter(_Record[_Body[event_type]])  # type: ignore[valid-type]  # a class known at run time


def decode_move(
    type_: str,
    data: bytes,
    ruleset: Ruleset[Any] | None = None,
    payload: bool = True,
) -> Move:
    """One stored game event (``<game>.<EventClass>``) as a :class:`Move`.

    ``ruleset`` is the rules version the game was created under (default:
    the game's newest), as for ``decode_payload``.

    :raises UnknownGameError: for a type name of no registered game.
    :raises KeyError: for an event name the game does not have.
    :raises pydantic.ValidationError: for bytes that are not such a record.
    """
    if not payload:
        head = _HEAD.validate_json(data)["body"]
        return Move(head["actor"], head["decision"], None)
    game_type, _, name = type_.partition(".")
    rules = ruleset if ruleset is not None else find_game(game_type)
    body = _adapter(rules.events_by_name[name]).validate_json(data)["body"]
    return Move(body["actor"], body["decision"], body["payload"])
