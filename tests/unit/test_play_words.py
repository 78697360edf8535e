"""The play page's words: move targets, marked boards, one-time codes."""

from __future__ import annotations

import doctest

from domain.words import targets
from services.dashboard.play_passes import Pass, PassBook
from services.dashboard.play_words import mark_targets, move_targets, moves_listed


def test_the_targets_doctest():
    assert doctest.testmod(targets).failed == 0


def test_a_terralore_placement_selects_its_cards_lanes_and_discards():
    from domain.games.terralore.commands import Lane, PlaceCards, Play

    placed = PlaceCards(
        plays=(Play(card="c1", lane=Lane.ATTACKING),), discards=("c2", "c3")
    )
    assert move_targets(placed) == [
        "card:c1",
        "discards:c2",
        "discards:c3",
        "lane:attacking",
    ]
    assert move_targets(PlaceCards()) == []


def test_a_board_is_marked_by_value_with_the_field_most_moves_use():
    drawn = '<ol class="hand"><li>a1</li><li>b2</li></ol><ol class="hidden">3 face down</ol>'
    marked = mark_targets(drawn, ["discards:a1", "card:a1", "card:a1", "lane:x"])
    assert '<button type="button" class="target" data-target="card:a1"' in marked
    assert "b2</li>" in marked  # nothing selects it
    assert '<ol class="hidden"><li>3 face down</li></ol>' in marked


def test_a_name_that_looks_like_markup_stays_text():
    marked = mark_targets("<ol><li>&lt;b&gt;</li></ol>", ["card:<b>"])
    assert "&lt;b&gt;</button>" in marked and "<b>" not in marked


def test_the_move_list_stops_at_its_limit_and_says_so():
    from pydantic import BaseModel

    class Pick(BaseModel):
        card: str

    from domain.games import find_game

    ruleset = find_game("thalara")  # no words for Pick: the plain ones
    moves = [Pick(card=f"c{i}") for i in range(10)]

    def listed(limit: int, target: str = "") -> tuple[list, bool]:
        return moves_listed(ruleset, moves, 0, None, {}, limit, target=target)

    rows, complete = listed(3)
    assert [r["index"] for r in rows] == [0, 1, 2] and not complete
    # a drawn thing's alternatives: the card, or the card as one of a list
    rows, complete = listed(3, target="card:c7 cards:c7")
    assert [r["index"] for r in rows] == [7] and complete
    rows, complete = listed(20)
    assert len(rows) == 10 and complete


def test_a_code_opens_once():
    book = PassBook()
    granted = Pass("seat", "secret", __import__("uuid").uuid4())
    code = book.mint(granted)
    assert "secret" not in code
    assert book.redeem(code) == granted
    assert book.redeem(code) is None
    assert book.redeem("made-up") is None


def test_a_code_expires_and_the_book_is_bounded():
    now = [0.0]
    book = PassBook(ttl=10, capacity=2, clock=lambda: now[0])
    uid = __import__("uuid").uuid4()
    old = book.mint(Pass("seat", "a", uid))
    now[0] = 11
    assert book.redeem(old) is None
    first, second, third = (book.mint(Pass("seat", t, uid)) for t in "xyz")
    assert book.redeem(first) is None  # the oldest made room
    assert book.redeem(second) is not None and book.redeem(third) is not None


def test_one_token_minting_in_a_loop_never_pushes_out_anothers_link():
    from services.dashboard.play_passes import PER_CREDENTIAL

    book = PassBook(capacity=PER_CREDENTIAL + 2)
    uid = __import__("uuid").uuid4()
    theirs = book.mint(Pass("seat", "their-token", uid))
    flood = [book.mint(Pass("seat", "my-token", uid)) for _ in range(1000)]
    assert book.redeem(theirs) is not None
    # the flooder keeps only its newest links
    assert all(book.redeem(code) is None for code in flood[:-PER_CREDENTIAL])
    assert all(book.redeem(code) is not None for code in flood[-PER_CREDENTIAL:])
