"""Small words people read: counts agree with their nouns, seats count from 1."""

from __future__ import annotations

from services.dashboard.web import templates


def _game_link(**game: object) -> str:
    source = '{% from "_gamelink.html" import game_link %}{{ game_link(g) }}'
    return templates.env.from_string(source).render(g=game)


def test_a_game_link_counts_its_players_in_words() -> None:
    base = {"game_id": "g1", "player_ids": []}
    assert ">1 player</a>" in _game_link(**base, players=1)
    assert ">3 players</a>" in _game_link(**base, players=3)
    assert ">ann · bob</a>" in _game_link(game_id="g1", player_ids=["ann", "bob"])
