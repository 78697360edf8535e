"""Page tokens are accepted only as the server issued them, for the same listing."""

from __future__ import annotations

import base64
import json

import pytest

from domain.contract.core import InvalidCommandError
from services.api import page_tokens


def old_style(payload: object) -> str:
    """The unsigned base64-JSON tokens the server used to trust."""
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()


def resigned(token: str, payload: object) -> str:
    """``token``'s MAC on another body: a tampered payload."""
    body = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"{body}.{token.partition('.')[2]}"


def test_an_issued_token_round_trips_for_its_listing() -> None:
    token = page_tokens.next_offset("GetLeaderboard", 50, q="thalara")
    assert page_tokens.offset("GetLeaderboard", token, q="thalara") == 50
    assert page_tokens.offset("GetLeaderboard", "", q="thalara") == 0


FORGED = {
    "offset -1": old_style({"o": -1}),
    "offset 2^63": old_style({"o": 2**63}),
    "not JSON": base64.urlsafe_b64encode(b"not json").decode(),
    "a list": old_style([1, 2, 3]),
    "not base64": "%%%%",
    "empty MAC": old_style({"o": 1}) + ".",
    "non-ASCII": "é.é",
    "tampered offset": resigned(
        page_tokens.next_offset("GetLeaderboard", 50, q="thalara"),
        {"o": -1, "q": "thalara"},
    ),
    "another RPC's token": page_tokens.next_offset("GetRatingHistory", 50, q="thalara"),
    "another query's token": page_tokens.next_offset(
        "GetLeaderboard", 50, q="vaalbara"
    ),
}


@pytest.mark.parametrize("token", list(FORGED.values()), ids=list(FORGED))
def test_a_forged_token_is_malformed_input(token: str) -> None:
    with pytest.raises(InvalidCommandError) as caught:
        page_tokens.offset("GetLeaderboard", token, q="thalara")
    assert caught.value.field == "page_token"  # type: ignore[attr-defined]


def test_tokens_signed_with_another_key_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(page_tokens, "_key", page_tokens._key)  # restored after
    page_tokens.configure("deployment one")
    token = page_tokens.next_offset("ListGames", 10)
    page_tokens.configure("deployment two")
    with pytest.raises(InvalidCommandError):
        page_tokens.offset("ListGames", token)
    page_tokens.configure("deployment one")
    assert page_tokens.offset("ListGames", token) == 10
