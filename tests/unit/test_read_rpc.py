"""The read RPCs' shared pieces: a view row as a message, and the page asked for."""

from __future__ import annotations

from types import SimpleNamespace
from uuid import uuid4

import pytest

from domain.contract.core import InvalidCommandError
from ledger.v1 import read_service_pb2 as pb
from services.api import page_tokens
from services.api.read_rpc import Page, from_row


def test_a_row_fills_the_fields_of_its_column_names_and_the_rest_is_given():
    game_id = uuid4()
    row = {
        "position": 7,
        "game_type": "thalara",  # no RatingChange field: left out
        "player_id": "ann",
        "game_id": game_id,
        "event_version": 12,
        "rank": 1,
        "mu_before": 25.0,
        "sigma_before": 8.3,
        "mu": 27.5,
        "sigma": 7.9,
        "ordinal": 3.8,
    }
    change = from_row(pb.RatingChange, row, game_id=str(game_id), log_position=7)
    assert change == pb.RatingChange(
        game_id=str(game_id),
        event_version=12,
        log_position=7,
        rank=1,
        mu_before=25.0,
        sigma_before=8.3,
        mu=27.5,
        sigma=7.9,
        ordinal=3.8,
    )


def test_a_page_reads_one_row_more_and_hands_out_a_token_only_when_it_came():
    first = Page.asked(
        "GetLeaderboard", SimpleNamespace(page_size=2, page_token=""), q="x"
    )
    assert (first.offset, first.limit) == (0, 3)
    assert first.next_token([1, 2]) == ""
    token = first.next_token([1, 2, 3])
    assert list(first.shown([1, 2, 3])) == [1, 2]
    second = Page.asked(
        "GetLeaderboard", SimpleNamespace(page_size=2, page_token=token), q="x"
    )
    assert second.offset == 2
    with pytest.raises(page_tokens.PageTokenError):
        Page.asked(
            "GetLeaderboard", SimpleNamespace(page_size=2, page_token=token), q="y"
        )
    with pytest.raises(InvalidCommandError):
        Page.asked("GetLeaderboard", SimpleNamespace(page_size=501, page_token=""))
