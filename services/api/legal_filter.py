"""Filtering a seat's legal moves by words, server side, rule-blind.

Why on the server: a Thalara hand selection lists 77,520 hands; a person
looking for the hands that hold two cards should not page through all of
them in the client.  The server knows nothing of cards, so a move matches a
filter when every word of the filter is found in the move's text: its type
name and its fields as JSON, case-folded (``"r05 r07"`` finds the hands whose
cards include ``r05@…`` and ``r07@…``).

The texts of one list are built once (a few hundred milliseconds for the
largest list, off the event loop) and reused by every filter of that list.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.contract.core import Command, InvalidCommandError

MAX_FILTER = 200
"""Characters of a filter (a person types a few card names)."""


def words(filter_text: str) -> tuple[str, ...]:
    """The filter's words, case-folded.

    :raises InvalidCommandError: a filter longer than :data:`MAX_FILTER`.
    """
    if len(filter_text) > MAX_FILTER:
        raise InvalidCommandError(
            f"filter must be at most {MAX_FILTER} characters",
            violations=(("moves.filter", f"at most {MAX_FILTER} characters"),),
        )
    return tuple(filter_text.casefold().split())


def texts(moves: Sequence[Command]) -> list[str]:
    """Each move's searchable text, in list order (blocking: run it off the loop)."""
    return [f"{type(m).__name__} {m.model_dump_json()}".casefold() for m in moves]


def matching(move_texts: Sequence[str], wanted: tuple[str, ...]) -> list[int]:
    """Indexes of the moves containing every word of ``wanted``, in list order."""
    return [i for i, text in enumerate(move_texts) if all(w in text for w in wanted)]
