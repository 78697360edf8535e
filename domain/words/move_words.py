"""Legal moves in words: the one entry point every reader of a move list calls.

A person choosing a move reads a sentence ("play r05 (strength 5, red) in
the conflict over a13"), not the command's fields ("play card (card r05@1,
conflict a13)").  Each game words its own commands (``Ruleset.describe_move``,
in the game's ``describe.py``); :func:`move_sentence` is what ``ledger
play``, ``ListLegalMoves(with_sentences)`` and the dashboard call, so no
reader words a move itself.

Why from a *view*: the sentence is for the seat about to choose, built from
``Ruleset.view(state, Viewer.player(seat))``, so it can name only what that
seat may see (its own hand, the public table), never another seat's cards.
Sentences are imperative, in the chooser's own words: "your supply", other
seats by name (:func:`~domain.words.sentences.seat_name`, counted from 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.words.sentences import Names, fields_words, seat_name, words

if TYPE_CHECKING:
    from domain.contract.core import Command, Model, Ruleset


def move_sentence(
    ruleset: Ruleset[Any], command: Command, seat: int, view: Model, names: Names
) -> str:
    """``command`` (a legal move of ``seat``) as ``seat`` reads it, from ``view``.

    ``view`` must be ``seat``'s own view (``Ruleset.view(state,
    Viewer.player(seat))``): a game's words may name what it shows.
    """
    if ruleset.describe_move is not None:
        return ruleset.describe_move(command, seat, view, names)
    return plain_move(command, seat, names)


def plain_move(command: Model, seat: int, names: Names) -> str:
    """Any command in words: its name as a verb, then its fields.

    The default of ``Ruleset.describe_move``: readable for a game registered
    from elsewhere, never as good as a game's own words.

    >>> from pydantic import BaseModel
    >>> class PlaceMark(BaseModel):
    ...     cell: int
    >>> plain_move(PlaceMark(cell=4), 0, {})
    'place mark: cell 4'
    >>> class GiveTurn(BaseModel):
    ...     seat: int
    >>> plain_move(GiveTurn(seat=0), 1, {0: "ann"})
    'give turn: seat ann'
    """
    head = words(type(command).__name__)
    rest = fields_words(command, names)
    return f"{head}: {rest}" if rest else head


def you(names: Names, seat: int | None, chooser: int, owner: bool = False) -> str:
    """``seat`` as the chooser reads it: "you" (or "your") for the chooser's
    own seat, else the seat's name (or "NAME's").

    >>> you({1: "sam"}, 1, 0), you({1: "sam"}, 1, 0, owner=True), you({}, 0, 0)
    ('sam', "sam's", 'you')
    >>> you({}, 0, 0, owner=True), you({}, 2, 0)
    ('your', 'seat 3')
    """
    if seat == chooser:
        return "your" if owner else "you"
    name = seat_name(names, seat)
    return f"{name}'s" if owner else name
