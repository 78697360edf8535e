"""A game's log in sentences: the ledger's own events and every game's, one place.

The ledger writes two events of its own around a game's (``GameCreated``
first, ``GameConcluded`` last); their sentences live here, beside the one
entry point every reader (``ledger replay``, the dashboard) calls for a
game's events, :func:`describe`, so no reader words an event itself.

:func:`describe` redacts before it words: a sentence is written only from
what ``viewer`` may see of the event, whichever ruleset wrote the words.
"""

from __future__ import annotations

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


def ended_sentence(
    kind: str, seat: int | None, by: str, reason: str, names: Names
) -> str:
    """One of the ledger's own endings (:mod:`domain.contract.endings`), in words.

    >>> ended_sentence("resigned", 1, "seat:1", "", {1: "ana"})
    'ana resigns.'
    >>> ended_sentence("adjudicated", None, "admin", "no-show", {})
    'admin records the result: no-show.'
    """
    who = seat_name(names, seat) if seat is not None else ""
    why = f": {reason}" if reason else ""
    if kind == "resigned":
        return f"{who} resigns."
    if kind == "timed_out":
        return f"{who} runs out of time ({by} records it)."
    if kind == "aborted":
        return f"{by} calls the game off{why}."
    if kind == "agreed":
        return f"{who} accepts the draw offer: the game is drawn."
    return f"{by} records the result{why}."


def control_sentence(
    kind: str, seat: int | None, by: str, added_ms: int, names: Names
) -> str:
    """One of the referee's controls (:mod:`domain.ledger.controls`), in words.

    >>> control_sentence("time_added", 1, "admin", 30_000, {1: "ana"})
    'admin gives ana 30 s more.'
    >>> control_sentence("draw_offered", 0, "seat:0", 0, {0: "sam"})
    'sam offers a draw.'
    """
    who = seat_name(names, seat) if seat is not None else ""
    if kind == "paused":
        return f"{by} pauses the game: the clocks stop."
    if kind == "resumed":
        return f"{by} resumes the game: the clocks run again."
    if kind == "time_added":
        return f"{by} gives {who} {added_ms / 1000:g} s more."
    if kind == "draw_offered":
        return f"{who} offers a draw."
    return f"{who} declines the draw offer."
