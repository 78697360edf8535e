"""A game's log in sentences: the ledger's own events and every game's, one place.

The ledger writes two events of its own around a game's (``GameCreated``
first, ``GameConcluded`` last); their sentences live here, beside the one
entry point every reader (``ledger replay``, the dashboard) calls for a
game's events, :func:`describe`, so no reader words an event itself.

:func:`describe` redacts before it words: a sentence is written only from
what ``viewer`` may see of the event, whichever ruleset wrote the words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from domain.contract.outcomes import Termination
from domain.words.sentences import Names, listing, plain_sentence, seat_name

if TYPE_CHECKING:
    from domain.contract.core import Event, Ruleset
    from domain.contract.outcomes import Outcome
    from domain.contract.viewers import Viewer


def describe(ruleset: Ruleset[Any], event: Event, viewer: Viewer, names: Names) -> str:
    """One sentence for a game event, as ``viewer`` may see it."""
    shown = ruleset.redact(event, viewer)
    if ruleset.describe is not None:
        return ruleset.describe(shown, viewer, names)
    return plain_sentence(shown, names)


def seat_names(
    ruleset: Ruleset[Any], setup: Any, player_ids: tuple[str, ...]
) -> dict[int, str]:
    """Seat -> player name, from the ids a game was created with (none: empty).

    A player with several seats (Thorgal solo) names each of them.
    """
    names: dict[int, str] = {}
    if not player_ids:
        return names
    for player, seats in zip(player_ids, ruleset.player_seats(setup)):
        for seat in seats:
            names[seat] = player
    return names


def created_sentence(ruleset: Ruleset[Any], seats: int, names: Names) -> str:
    """``GameCreated``: which game, and who sits where.

    >>> from domain.games import find_game
    >>> created_sentence(find_game("thalara"), 2, {0: "rita"})
    'A game of Thalara: The Last Artifacts begins: rita and seat 2.'
    """
    people = listing([seat_name(names, s) for s in range(seats)], "no one")
    return f"A game of {ruleset.title} begins: {people}."


def concluded_sentence(outcome: Outcome, names: Names) -> str:
    """``GameConcluded``: who won, the scores, and that the seed is now public.

    >>> from domain.contract.outcomes import Outcome
    >>> concluded_sentence(
    ...     Outcome(termination="completed", ranks=(1, 2), scores=(3, 1), winners=(0,)),
    ...     {0: "sam"},
    ... )
    'The game is over: sam wins (scores: sam 3, seat 2 1); the seed is revealed.'
    >>> concluded_sentence(
    ...     Outcome(termination="forfeited", ranks=(1, 1), scores=(0, 0), winners=(),
    ...             absent=(0, 1)),
    ...     {0: "sam"},
    ... )
    'The game is over (forfeited): nobody wins; sam and seat 2 never moved (scores: sam 0, seat 2 0); the seed is revealed.'
    """
    scores = ", ".join(
        f"{seat_name(names, seat)} {score}" for seat, score in enumerate(outcome.scores)
    )
    winners = listing([seat_name(names, s) for s in outcome.winners], "")
    if outcome.termination == Termination.TEAM_WON:
        result = "the team wins"
    elif outcome.termination == Termination.TEAM_LOST:
        result = "the scenario beats the team"
    elif not winners:
        result = "nobody wins"
    elif len(outcome.winners) > 1:
        result = f"{winners} share the win"
    else:
        result = f"{winners} wins"
    how = (
        f" ({outcome.termination.value.replace('_', ' ')})"
        if outcome.termination
        not in (Termination.COMPLETED, Termination.TEAM_WON, Termination.TEAM_LOST)
        else ""
    )
    if outcome.absent:
        absent = listing([seat_name(names, s) for s in outcome.absent], "")
        result += f"; {absent} never moved"
    tally = f" (scores: {scores})" if scores else ""
    return f"The game is over{how}: {result}{tally}; the seed is revealed."


LEDGER_SENTENCES = {
    "resigned": "{who} resigns.",
    "timed_out": "{who} runs out of time ({by} records it).",
    "aborted": "{by} calls the game off{why}.",
    "adjudicated": "{by} records the result{why}.",
    "agreed": "{who} accepts the draw offer: the game is drawn.",
    "paused": "{by} pauses the game: the clocks stop.",
    "resumed": "{by} resumes the game: the clocks run again.",
    "time_added": "{by} gives {who} {seconds:g} s more.",
    "draw_offered": "{who} offers a draw.",
    "draw_declined": "{who} declines the draw offer.",
}
"""The words of each event the ledger records itself, by kind: its endings
(:mod:`domain.contract.endings`) and the referee's controls
(:mod:`domain.ledger.controls`).  ``who`` is the seat's name, ``by`` who
recorded it, ``why`` a written reason, ``seconds`` the time added."""


def ledger_sentence(
    kind: str,
    seat: int | None,
    by: str,
    names: Names,
    reason: str = "",
    added_ms: int = 0,
) -> str:
    """One of the ledger's own events (an ending, a control), in words.

    >>> ledger_sentence("resigned", 1, "seat:1", {1: "ana"})
    'ana resigns.'
    >>> ledger_sentence("adjudicated", None, "admin", {}, reason="no-show")
    'admin records the result: no-show.'
    >>> ledger_sentence("time_added", 1, "admin", {1: "ana"}, added_ms=30_000)
    'admin gives ana 30 s more.'
    >>> ledger_sentence("draw_offered", 0, "seat:0", {0: "sam"})
    'sam offers a draw.'
    >>> ledger_sentence("timed_out", 1, "seat:0", {})
    'seat 2 runs out of time (seat 1 records it).'
    """
    return LEDGER_SENTENCES[kind].format(
        who=seat_name(names, seat) if seat is not None else "",
        by=by_words(by, names),
        why=f": {reason}" if reason else "",
        seconds=added_ms / 1000,
    )


_SEATS = re.compile(r"\b(seats?) (\d+(?:(?:, | and )\d+)*)\b")
"""``seat 0`` / ``seats 0, 1``: seat numbers as the API writes them, from 0."""

WRITTEN = frozenset({Termination.ADJUDICATED, Termination.ABORTED})
"""Endings whose reason a person wrote: shown as written, never renumbered."""


def seats_in_words(text: str, names: Names) -> str:
    """A reason the ledger or a ruleset wrote, with its seats as people read them.

    Reasons are stored as the API writes seats (from 0) and are never
    rewritten, so every reader for people renames them here.

    >>> seats_in_words("seat 0 resigned", {0: "rita"})
    'rita resigned'
    >>> seats_in_words("no seat showed up (seats 0, 1)", {})
    'no seat showed up (seat 1 and seat 2)'
    >>> seats_in_words("a character died: seat 1 could not place a Wound", {})
    'a character died: seat 2 could not place a Wound'
    """

    def named(match: re.Match[str]) -> str:
        seats = [int(n) for n in re.findall(r"\d+", match.group(2))]
        return listing([seat_name(names, s) for s in seats])

    return _SEATS.sub(named, text)


def outcome_reason(outcome: Outcome, names: Names) -> str:
    """The outcome's reason for people: a written one as written, the
    ledger's or the rules' own with seats named (:func:`seats_in_words`).

    >>> from domain.contract.outcomes import Outcome
    >>> outcome_reason(Outcome(termination="resigned", ranks=(2, 1), scores=(0, 1),
    ...     winners=(1,), reason="seat 0 resigned"), {1: "sam"})
    'seat 1 resigned'
    >>> outcome_reason(Outcome(termination="adjudicated", ranks=(1, 2), scores=(0, 0),
    ...     winners=(0,), reason="seat 2 never came"), {})
    'seat 2 never came'
    """
    if outcome.termination in WRITTEN:
        return outcome.reason
    return seats_in_words(outcome.reason, names)


def by_words(by: str, names: Names) -> str:
    """Who recorded a ledger event: ``seat:N`` (the API's principal, from 0)
    as the seat's name; ``admin``, an organiser or the timekeeper as is.

    >>> by_words("seat:0", {0: "rita"}), by_words("seat:1", {}), by_words("admin", {})
    ('rita', 'seat 2', 'admin')
    """
    kind, _, number = by.partition(":")
    if kind == "seat" and number.isdigit():
        return seat_name(names, int(number))
    return by
