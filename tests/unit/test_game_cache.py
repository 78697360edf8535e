"""The one game cache (services.ledger.game_cache): shells, freshness and derived values.

No database: the store is a list of events per game and the rebuild replays
them, so each test can count what the cache read and when.
"""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest

from domain.games import find_game
from domain.ledger.aggregate import Game
from services.ledger.game_cache import GameCache, GameNotFoundError
from services.ledger.heads import Heads

THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
SEED = bytes(32)


class FakeStore:
    """The events a real store would hold, and a log of what was read."""

    def __init__(self) -> None:
        self.log: dict[UUID, list[Any]] = {}
        self.reads: list[tuple[str, UUID, int]] = []

    def events(
        self, game_id: UUID, after: int = 0, upto: int | None = None, limit=None
    ) -> list[Any]:
        self.reads.append(("events", game_id, after))
        found = [
            e
            for e in self.log.get(game_id, [])
            if e.originator_version > after
            and (upto is None or e.originator_version <= upto)
        ]
        return found[:limit] if limit else found

    def rebuild(self, game_id: UUID, at: int | None) -> Game:
        self.reads.append(("rebuild", game_id, at or 0))
        if game_id not in self.log:
            from eventsourcing.application import AggregateNotFoundError

            raise AggregateNotFoundError(game_id)
        game = None
        for event in self.log[game_id]:
            if at is not None and event.originator_version > at:
                break
            game = event.mutate(game)
        assert game is not None
        return game

    def seed(self, game_id: UUID) -> bytes | None:
        return SEED if game_id in self.log else None


def new_game(store: FakeStore) -> Game:
    game = Game.create(THALARA, THALARA.setup_model.model_validate(SETUP), SEED, ())
    store.log[game.id] = list(game.collect_events())
    return game


def decide(game: Game, rnd: random.Random) -> list[Any]:
    seat = rnd.choice(game.to_act())
    command = THALARA.random_command(game.state, seat, rnd)
    assert command is not None, "a seat to act has a move"
    return game.act(command, seat, SEED, "c")


def make(store: FakeStore, heads: Heads) -> GameCache:
    return GameCache(10, heads, store, store.rebuild)  # type: ignore[arg-type]


def test_deciding_on_a_loaded_game_never_changes_what_the_cache_holds() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    mine = cache.load(game_id)
    before = (mine.version, mine.state, mine.head_hash)
    decide(mine, random.Random(1))
    assert mine.version > before[0]
    other = cache.vouched(game_id)
    assert other is not None and other is not mine
    assert (other.version, other.state, other.head_hash) == before
    assert other.pending_events == []


def test_a_recorded_move_is_published_whole_and_served_from_memory() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    epoch = heads.epoch
    mine = cache.load(game_id)
    new_events = decide(mine, random.Random(2))
    store.log[game_id] += new_events  # committed
    cache.committed(mine, epoch, new_events)
    store.reads.clear()
    now = cache.load(game_id)
    assert (now.version, now.state) == (mine.version, mine.state)
    assert store.reads == [], "vouched: no read"
    head, tail = cache.since(game_id, new_events[0].originator_version - 1)
    assert head.version == mine.version
    probe = cache.vouched_since(game_id, new_events[0].originator_version - 1)
    assert probe is not None and [e.hash for e in probe[1]] == [
        e.hash for e in new_events
    ]
    heads.deaf()
    assert cache.vouched_since(game_id, 0) is None, "not vouched: ask the store"
    assert [e.originator_version for e in tail] == [
        e.originator_version for e in new_events
    ]
    assert store.reads == []


def test_a_notified_newer_version_is_read_from_the_store_as_only_what_is_missing() -> (
    None
):
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    held = cache.load(game_id)
    elsewhere = store.rebuild(game_id, None)  # another process decides and commits
    new_events = decide(elsewhere, random.Random(3))
    store.log[game_id] += new_events
    assert cache.load(game_id).version == held.version, "not notified yet"
    heads.saw(str(game_id), elsewhere.version)
    store.reads.clear()
    now = cache.load(game_id)
    assert (now.version, now.state) == (elsewhere.version, elsewhere.state)
    assert store.reads == [("events", game_id, held.version)], "a catch-up read"


def test_a_commit_without_an_answer_sends_the_next_read_to_the_store() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    held = cache.load(game_id)
    mine = cache.load(game_id)
    new_events = decide(mine, random.Random(5))
    store.log[game_id] += new_events  # stored, but the answer was lost
    assert cache.vouched(game_id) is not None, "vouched before the doubt"
    cache.doubt(game_id)
    assert cache.vouched(game_id) is None
    store.reads.clear()
    now = cache.load(game_id)
    assert (now.version, now.state) == (mine.version, mine.state)
    assert store.reads == [("events", game_id, held.version)], "only what is missing"
    assert cache.vouched(game_id) is not None, "vouched again once read"


def test_nothing_is_vouched_while_not_listening() -> None:
    store, heads = FakeStore(), Heads()
    game_id = new_game(store).id
    cache = make(store, heads)
    held = cache.load(game_id)
    assert cache.vouched(game_id) is None
    store.reads.clear()
    cache.load(game_id)
    assert store.reads == [("events", game_id, held.version)]


def test_an_unknown_game_is_not_found() -> None:
    cache = make(FakeStore(), Heads())
    with pytest.raises(GameNotFoundError):
        cache.load(UUID(int=7))


def test_the_least_recently_used_game_is_evicted_by_count() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    cache = GameCache(2, heads, store, store.rebuild)  # type: ignore[arg-type]
    a, b, c = (new_game(store).id for _ in range(3))
    cache.load(a)
    cache.load(b)
    cache.load(a)  # a is used again: b is now the oldest
    cache.load(c)
    assert cache.held_version(a) is not None
    assert cache.held_version(b) is None
    assert cache.held_version(c) is not None


def test_a_view_is_computed_once_per_version_and_viewer() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    calls: list[Any] = []

    def compute(game: Game, viewer: Any) -> tuple[int, Any]:
        calls.append(viewer)
        return game.version, viewer

    game = cache.load(game_id)
    assert cache.view(game, "alice", compute) == (game.version, "alice")
    assert cache.view(cache.load(game_id), "alice", compute) == (game.version, "alice")
    assert cache.view(game, "bob", compute) == (game.version, "bob")
    assert calls == ["alice", "bob"]


def test_an_idle_game_keeps_its_state_but_not_its_events_once_others_are_played() -> (
    None
):
    store, heads = FakeStore(), Heads()
    heads.listening()
    cache = GameCache(10, heads, store, store.rebuild, tail_games=1)  # type: ignore[arg-type]
    played: dict[UUID, int] = {}
    for seed in (4, 5):  # a is played, then b
        game_id = new_game(store).id
        epoch = heads.epoch
        mine = cache.load(game_id)
        new_events = decide(mine, random.Random(seed))
        store.log[game_id] += new_events
        cache.committed(mine, epoch, new_events)
        played[game_id] = new_events[0].originator_version - 1
    a, b = played
    assert cache.vouched_since(b, played[b]) is not None, "b's move: from memory"
    assert cache.held_version(a) == store.rebuild(a, None).version, "a is held"
    assert cache.vouched_since(a, played[a]) is None, "a's events are not"
    store.reads.clear()
    _, tail = cache.since(a, played[a])
    assert [e.hash for e in tail] == [e.hash for e in store.log[a][played[a] :]]
    assert store.reads == [("events", a, played[a])], "read from the store"


def test_a_viewer_keeps_the_view_of_one_version_the_newest_asked() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    game_id = new_game(store).id
    cache = make(store, heads)
    first = cache.load(game_id)
    cache.view(first, "alice", lambda g, v: g.version)
    seat = first.to_act()[0]
    cache.legal_moves(first, seat)
    assert cache.held_derived(game_id) == {
        ("view", "alice"): first.version,
        ("moves", seat): first.version,
    }
    epoch = heads.epoch
    mine = cache.load(game_id)
    new_events = decide(mine, random.Random(6))
    store.log[game_id] += new_events
    cache.committed(mine, epoch, new_events)
    now = cache.load(game_id)
    assert cache.view(now, "alice", lambda g, v: g.version) == now.version
    cache.legal_moves(now, seat)
    assert cache.held_derived(game_id) == {
        ("view", "alice"): now.version,
        ("moves", seat): now.version,
    }, "the first version's values are gone"
    assert cache.view(first, "alice", lambda g, v: -g.version) == -first.version
    assert cache.held_derived(game_id)[("view", "alice")] == now.version, (
        "an older version asked late does not replace the newer"
    )


def test_views_and_legal_moves_are_kept_for_the_most_recently_asked_games() -> None:
    store, heads = FakeStore(), Heads()
    heads.listening()
    cache = GameCache(10, heads, store, store.rebuild, derived_games=1)  # type: ignore[arg-type]
    a, b = (cache.load(new_game(store).id) for _ in range(2))
    for game in (a, b):
        cache.legal_moves(game, game.to_act()[0])
    assert cache.held_version(a.id) == a.version
    assert cache.held_derived(a.id) == {}
    assert cache.held_derived(b.id) == {("moves", b.to_act()[0]): b.version}
