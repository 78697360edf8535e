"""How a finished game ended: :class:`Termination`, :class:`Outcome` and ranking.

Why apart from the ruleset contract: the aggregate, the audit, the projections
and the API all read an outcome without needing anything else of a ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from domain.contract.messages import Model, Seat


class Termination(str, enum.Enum):
    """How a game ended."""

    COMPLETED = "completed"
    """The game reached an end condition of its rulebook and was scored."""

    TEAM_WON = "team_won"
    """A cooperative game: the team beat the scenario."""

    TEAM_LOST = "team_lost"
    """A cooperative game: the scenario beat the team."""

    RESIGNED = "resigned"
    """A seat conceded (:mod:`domain.contract.endings`): a rated loss for it."""

    ABORTED = "aborted"
    """Called off before enough moves were made: nobody won, unrated, no stats."""

    ADJUDICATED = "adjudicated"
    """An organiser or admin recorded the result, with a reason."""

    TIMED_OUT = "timed_out"
    """A seat ran out of time on its clock: the ruleset's timeout consequence."""

    FORFEITED = "forfeited"
    """A seat never moved within the no-show window: unrated, and the seats
    that never moved (``Outcome.absent``) score nothing.  With every seat
    absent it is a double forfeit: no winner, every seat a loss."""

    AGREED = "agreed"
    """The players agreed a draw: a rated draw, nobody wins."""


class Outcome(Model):
    """A finished game: who placed where (python-chess's ``Outcome``).

    ``ranks[seat]`` is 1 for the best place; tied seats share a rank, so a
    draw between two players is ``ranks=(1, 1)``.  ``winners`` lists every
    seat with rank 1 (empty when a cooperative team lost).
    """

    termination: Termination
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    reason: str = ""
    absent: tuple[Seat, ...] = ()
    """The seats that forfeited by never moving (the no-show convention):
    they score no point and are not rated, whatever the ranks say.  Empty
    in outcomes recorded before the convention (and then not stored)."""


RANKING_RULE = "outcome.competition-ranking"
"""The rule every recorded ``Outcome.ranks`` keeps (:func:`is_competition_ranking`):
named in the refusal of an adjudication that breaks it."""


def is_competition_ranking(ranks: Sequence[int]) -> bool:
    """Whether ``ranks`` is a standard competition ranking ("1224"): each
    rank is one more than the number of ranks better than it.

    Why the one shape: standings, ratings and the results policy read tied
    places from it (two seats sharing 1st leave no 2nd), and every ending
    the ledger decides produces it.

    >>> is_competition_ranking((1, 1, 3)), is_competition_ranking((1, 1, 2))
    (True, False)
    """
    return bool(ranks) and all(r == 1 + sum(1 for o in ranks if o < r) for r in ranks)


def competition_ranking(ranks: Sequence[int]) -> tuple[int, ...]:
    """The competition ranking with the same order as ``ranks`` (the form an
    adjudication that was refused probably meant).

    >>> competition_ranking((1, 1, 2)), competition_ranking((1, 3, 3))
    ((1, 1, 3), (1, 2, 2))
    """
    return tuple(1 + sum(1 for o in ranks if o < r) for r in ranks)


def ranks_from_scores(scores: Sequence[Sequence[int] | int]) -> tuple[int, ...]:
    """Competition ranking ("1224") where higher scores are better.

    Scores may be tuples for tie-break chains; equal tuples share a rank.

    >>> ranks_from_scores([10, 12, 10])
    (2, 1, 2)
    >>> ranks_from_scores([(5, 1), (5, 2)])
    (2, 1)
    """
    keys = [s if isinstance(s, tuple) else (s,) for s in scores]
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
