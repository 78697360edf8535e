"""An adjudication must rank the seats the way every other ending does.

Standings, ratings and the results policy read ``Outcome.ranks`` as a
standard competition ranking ("1224": a seat's rank is one more than the
number of seats ranked better).  An adjudication that records anything else
(``(1, 1, 2)``, ``(1, 2, 1)``, ``(1, 3, 3)``) is refused at the call, with the
rule named, before anything is stored.
"""

from __future__ import annotations

import pytest

from domain.contract.core import InvalidCommandError
from domain.contract.endings import adjudicated
from domain.contract.outcomes import RANKING_RULE, is_competition_ranking
from tests.unit.test_referee_endings import SEED, new_game


@pytest.mark.parametrize(
    "ranks", [(1, 1, 2), (1, 2, 1), (1, 3, 3), (1, 2, 2, 3), (1, 1, 1, 2), (2, 1, 1)]
)
def test_a_ranking_the_tournament_cannot_take_is_refused_with_the_rule(
    ranks: tuple[int, ...],
) -> None:
    with pytest.raises(InvalidCommandError) as refused:
        adjudicated(ranks, "arbiter")
    assert RANKING_RULE in str(refused.value)
    assert any(
        field == "ranks" and RANKING_RULE in text
        for field, text in refused.value.violations
    )


@pytest.mark.parametrize(
    "ranks", [(1, 1, 3), (1, 3, 1), (1, 2, 2), (3, 1, 1), (1, 1, 1), (2, 1), (1, 1)]
)
def test_competition_rankings_are_taken(ranks: tuple[int, ...]) -> None:
    assert is_competition_ranking(ranks)
    assert adjudicated(ranks, "arbiter").ranks == ranks


def test_the_game_refuses_it_and_stays_open() -> None:
    game = new_game("thalara-3p", control=None)
    version = game.version
    with pytest.raises(InvalidCommandError):
        game.adjudicate((1, 1, 2), "tied first", "admin", SEED)
    assert game.outcome is None and game.version == version
    game.adjudicate((1, 1, 3), "tied first", "admin", SEED)
    assert game.outcome is not None and game.outcome.winners == (0, 1)
