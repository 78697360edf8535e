"""Read tokens: opaque, bound to their caller, and alike in shape for any position."""

from __future__ import annotations

import uuid

import pytest

from domain.contract.viewers import SeatGrant
from services.api import read_tokens
from services.api.read_tokens import ReadTokenError
from services.ledger.callers import ANONYMOUS, Principal

GAME = uuid.uuid4()
SEAT_0 = Principal(grant=SeatGrant(GAME, 0, (0,)))
SEAT_1 = Principal(grant=SeatGrant(GAME, 1, (1,)))


def test_a_token_gives_its_position_back_to_its_caller_only() -> None:
    token = read_tokens.issue(1234, SEAT_0)
    assert read_tokens.position(token, SEAT_0) == 1234
    for other in (SEAT_1, ANONYMOUS, Principal(admin=True)):
        with pytest.raises(ReadTokenError, match="min_read_token"):
            read_tokens.position(token, other)


def test_tokens_are_neither_comparable_nor_sized_by_their_position() -> None:
    tokens = [read_tokens.issue(p, SEAT_0) for p in (1, 1, 2, 10**6, 2**62)]
    assert len(set(tokens)) == len(tokens)
    assert len({len(t) for t in tokens}) == 1
    assert read_tokens.issue(0, SEAT_0) == ""
    assert read_tokens.position("", SEAT_0) == 0


@pytest.mark.parametrize(
    "garbage",
    ["x", "rt1.", "rt1.AAAA", "rt1.é", "rt1.\x00", "rt2.abc", "rt1." + "A" * 60],
)
def test_anything_not_issued_is_refused_alike(garbage: str) -> None:
    with pytest.raises(ReadTokenError):
        read_tokens.position(garbage, SEAT_0)


def test_a_flipped_character_or_another_deployments_key_is_refused() -> None:
    token = read_tokens.issue(99, SEAT_0)
    flipped = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
    with pytest.raises(ReadTokenError):
        read_tokens.position(flipped, SEAT_0)
    read_tokens.configure("another deployment")
    try:
        with pytest.raises(ReadTokenError):
            read_tokens.position(token, SEAT_0)
    finally:
        read_tokens.configure("x")
