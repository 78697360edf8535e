"""The Tournament aggregate: lifecycle, idempotent results, rules, replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.tournament.aggregate import Tournament
from domain.tournament.codec import EVENT_TYPES, decode_event, event_body, record_type
from domain.tournament.state import TableAssignment
from tests.support.sizes import examples


def make(
    fmt: str = "round_robin", rounds: int = 3, players: str = "abcd", **kw: Any
) -> Tournament:
    game = kw.pop("game_type", "thalara")
    t = Tournament.create("Spring cup", game, fmt, rounds, **kw)
    for p in players:
        t.register(p)
    return t


def start(t: Tournament) -> tuple[int, list[TableAssignment]]:
    """Plan, 'create the games', and start the round, as the service will."""
    plan = t.plan_round()
    round_ = t.state.current_round + 1
    tables = [
        TableAssignment(table=i + 1, players=players, game_id=f"r{round_}t{i + 1}")
        for i, players in enumerate(plan.tables)
    ]
    assert t.start_round(tables, plan.byes) == round_
    return round_, tables


def replay(t: Tournament) -> Tournament:
    """Rebuild ``t`` from its pending events (which stay pending)."""
    rebuilt = None
    for event in t.pending_events:
        rebuilt = event.mutate(rebuilt)
    assert isinstance(rebuilt, Tournament)
    return rebuilt


def rule_of(excinfo: pytest.ExceptionInfo[IllegalCommandError]) -> str:
    return excinfo.value.rule


def test_a_four_player_round_robin_runs_from_registration_to_standings() -> None:
    t = make()
    # Results by seeded strength: the earlier-registered player always wins.
    strength = {p: i for i, p in enumerate("abcd")}
    met = set()
    for _ in range(3):
        _, tables = start(t)
        for table in tables:
            met.add(frozenset(table.players))
            ranks = tuple(
                1 + sum(strength[o] < strength[p] for o in table.players)
                for p in table.players
            )
            assert t.record_result(table.game_id, ranks) is True
    assert len(met) == 6
    assert t.is_finished and t.state.status == "finished"
    assert replay(t).state == t.state
    rows = t.standings()
    assert [
        (r.rank, r.player_id, r.points, r.wins, r.losses, r.games) for r in rows
    ] == [
        (1, "a", 9.0, 3, 0, 3),
        (2, "b", 6.0, 2, 1, 3),
        (3, "c", 3.0, 1, 2, 3),
        (4, "d", 0.0, 0, 3, 3),
    ]
    names = [record_type(e) for e in t.collect_events()]
    assert (
        names[:5]
        == ["tournament.TournamentCreated"] + ["tournament.PlayerRegistered"] * 4
    )
    assert names[-1] == "tournament.TournamentFinished"
    assert names.count("tournament.RoundStarted") == 3
    assert names.count("tournament.ResultRecorded") == 6


def test_plan_round_records_nothing() -> None:
    t = make()
    assert t.state.status == "registering"
    t.collect_events()
    assert t.plan_round() == t.plan_round()
    assert t.collect_events() == []


def test_recording_a_result_twice_is_a_no_op() -> None:
    t = make()
    _, tables = start(t)
    assert t.record_result(tables[0].game_id, (2, 1)) is True
    version = t.version
    assert t.record_result(tables[0].game_id, [2, 1]) is False
    assert t.version == version
    with pytest.raises(IllegalCommandError) as excinfo:
        t.record_result(tables[0].game_id, (1, 2))
    assert rule_of(excinfo) == "tournament.result-conflict"


@pytest.mark.parametrize(
    ("game_id", "ranks"),
    [("r1t1", (1,)), ("r1t1", (2, 2)), ("r1t1", (0, 1)), ("nope", (1, 2))],
)
def test_malformed_results_are_invalid(game_id: str, ranks: tuple[int, ...]) -> None:
    t = make()
    start(t)
    with pytest.raises(InvalidCommandError):
        t.record_result(game_id, ranks)


def test_registration_closes_when_round_one_starts() -> None:
    t = make()
    with pytest.raises(IllegalCommandError) as excinfo:
        t.register("a")
    assert rule_of(excinfo) == "tournament.already-registered"
    start(t)
    with pytest.raises(IllegalCommandError) as excinfo:
        t.register("e")
    assert rule_of(excinfo) == "tournament.registration-closed"


def test_the_next_round_waits_for_every_result() -> None:
    t = make()
    _, tables = start(t)
    t.record_result(tables[0].game_id, (1, 2))
    for action in (t.plan_round, lambda: t.start_round([], ()), t.finish):
        with pytest.raises(IllegalCommandError) as excinfo:
            action()
        assert rule_of(excinfo) == "tournament.round-incomplete"


def test_no_round_beyond_the_configured_number() -> None:
    t = make("swiss", rounds=1)
    _, tables = start(t)
    for table in tables:
        t.record_result(table.game_id, (1, 2))
    assert t.is_finished
    with pytest.raises(IllegalCommandError) as excinfo:
        t.plan_round()
    assert rule_of(excinfo) == "tournament.finished"


def test_withdrawal_rules() -> None:
    t = make()
    t.withdraw("d")
    with pytest.raises(IllegalCommandError) as excinfo:
        t.withdraw("d")
    assert rule_of(excinfo) == "tournament.already-withdrawn"
    with pytest.raises(IllegalCommandError) as excinfo:
        t.withdraw("z")
    assert rule_of(excinfo) == "tournament.not-registered"


def test_a_round_robin_must_play_its_whole_schedule() -> None:
    t = make(rounds=2)
    with pytest.raises(IllegalCommandError) as excinfo:
        t.plan_round()
    assert rule_of(excinfo) == "tournament.round-robin-rounds"
    auto = make(rounds=0, players="abcde")
    assert auto.state.total_rounds == 5


def test_two_active_players_are_needed() -> None:
    t = make(players="a")
    with pytest.raises(IllegalCommandError) as excinfo:
        t.plan_round()
    assert rule_of(excinfo) == "tournament.not-enough-players"


def test_withdrawn_players_are_not_paired_but_their_games_count() -> None:
    t = make("swiss", rounds=3, players="abcdef")
    _, tables = start(t)
    for table in tables:
        t.record_result(table.game_id, (1, 2))
    loser = tables[0].players[1]
    t.withdraw(loser)
    plan = t.plan_round()
    assert loser not in plan.seated + plan.byes
    assert len(plan.byes) == 1
    row = next(r for r in t.standings() if r.player_id == loser)
    assert (row.games, row.losses, row.withdrawn) == (1, 1, True)


def test_a_round_robin_opponent_who_withdrew_leaves_a_bye() -> None:
    t = make()
    _, tables = start(t)
    for table in tables:
        t.record_result(table.game_id, (1, 2))
    t.withdraw("d")
    plan = t.plan_round()
    assert len(plan.tables) == 1 and len(plan.byes) == 1
    assert "d" not in plan.seated + plan.byes


@pytest.mark.parametrize(
    ("tables", "byes"),
    [
        (
            [TableAssignment(table=1, players=("a", "b"), game_id="g1")],
            (),
        ),  # c, d unseated
        (
            [
                TableAssignment(table=1, players=("a", "b"), game_id="g1"),
                TableAssignment(table=1, players=("c", "d"), game_id="g2"),
            ],
            (),
        ),  # numbering
        (
            [
                TableAssignment(table=1, players=("a", "b"), game_id="g1"),
                TableAssignment(table=2, players=("c", "d"), game_id="g1"),
            ],
            (),
        ),  # same game
        ([{"table": 1, "players": ["a", "b", "c"], "game_id": "g1"}], ("d",)),  # size
        ([TableAssignment(table=1, players=("a", "b"), game_id="g1")], ("c", "d", "d")),
        ([{"table": 1, "players": ["a", "b"], "game": "g1"}], ("c", "d")),  # shape
    ],
)
def test_malformed_rounds_are_invalid(tables: list[Any], byes: tuple[str, ...]) -> None:
    t = make()
    with pytest.raises(InvalidCommandError):
        t.start_round(tables, byes)


def test_hand_made_pairings_are_accepted_and_game_ids_stay_fresh() -> None:
    t = make("swiss", rounds=2)
    t.start_round(
        [
            TableAssignment(table=1, players=("a", "c"), game_id="g1"),
            TableAssignment(table=2, players=("b", "d"), game_id="g2"),
        ],
        (),
    )
    t.record_result("g1", (1, 2))
    t.record_result("g2", (1, 1))
    with pytest.raises(InvalidCommandError):
        t.start_round(
            [
                TableAssignment(table=1, players=("a", "b"), game_id="g1"),
                TableAssignment(table=2, players=("c", "d"), game_id="g3"),
            ],
            (),
        )


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("", "thalara", "swiss", 3), {}),
        (("x", "chess", "swiss", 3), {}),
        (("x", "thalara", "knockout", 3), {}),
        (("x", "thalara", "swiss", 0), {}),
        (("x", "thalara", "swiss", 3), {"table_size": 3}),
        (("x", "thalara", "swiss_ffa", 3), {"table_size": 2}),
        (("x", "thalara", "swiss_ffa", 3), {"table_size": 5}),  # thalara seats 2-4
        (("x", "terralore", "swiss_ffa", 3), {"table_size": 3}),
        (("x", "thalara", "swiss", 3), {"setup": {"players": 2}}),
        (("x", "thalara", "swiss", 3), {"setup": {"colour": "red"}}),
    ],
)
def test_malformed_creation_is_invalid(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InvalidCommandError):
        Tournament.create(*args, **kwargs)


def test_game_setup_builds_each_tables_game() -> None:
    t = make(setup={"mode": "standard"})
    assert t.state.setup == {"mode": "standard"}
    setup = t.game_setup(2)
    assert (setup.players, setup.mode) == (2, "standard")  # type: ignore[attr-defined]


def test_a_swiss_ffa_event_groups_tables_and_gives_byes() -> None:
    t = make(
        "swiss_ffa", rounds=3, players="abcdefg", game_type="vaalbara", table_size=4
    )
    for _ in range(3):
        _, tables = start(t)
        assert sorted(len(x.players) for x in tables) == [3, 4]
        for table in tables:
            t.record_result(table.game_id, tuple(range(1, len(table.players) + 1)))
    assert t.is_finished
    assert sum(r.points for r in t.standings()) == 3 * (3 + 2 + 1 + 0 + 3 + 2 + 1)


def played(t: Tournament) -> Tournament:
    start(t)
    t.record_result("r1t1", (1, 1))
    t.withdraw("e")
    return t


def test_replaying_the_events_rebuilds_equal_state() -> None:
    t = played(make("swiss", rounds=3, players="abcde"))
    t.record_result("r1t2", (2, 1))
    rebuilt = replay(t)
    assert rebuilt.state == t.state
    assert rebuilt.version == t.version
    assert rebuilt.plan_round() == t.plan_round()
    assert rebuilt.standings() == t.standings()


@examples(60)
@given(
    fmt=st.sampled_from(["round_robin", "swiss", "swiss_ffa"]),
    count=st.integers(2, 12),
    size=st.integers(3, 5),
    seed=st.integers(0, 10_000),
)
def test_random_tournaments_pair_validly_and_replay_equal(
    fmt, count, size, seed
) -> None:
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    size = 2 if fmt != "swiss_ffa" else size
    rounds = 0 if fmt == "round_robin" else rnd.randint(1, 4)
    t = Tournament.create("cup", "vaalbara", fmt, rounds, table_size=size)
    for p in players:
        t.register(p)
    while not t.is_finished:
        if len(t.state.active_players) < 2:
            t.finish()
            break
        plan = t.plan_round()
        everyone = [*plan.seated, *plan.byes]
        assert sorted(everyone) == sorted(t.state.active_players)
        _, tables = start(t)
        for table in tables:
            ranks = list(range(1, len(table.players) + 1))
            rnd.shuffle(ranks)
            t.record_result(table.game_id, ranks)
        if not t.is_finished and rnd.random() < 0.2:
            t.withdraw(rnd.choice(t.state.active_players))
    assert replay(t).state == t.state
    assert len(t.standings()) == count


def test_events_survive_a_json_round_trip() -> None:
    t = played(make("swiss", rounds=3, players="abcde"))
    events = t.collect_events()
    assert {type(e) for e in events} <= set(EVENT_TYPES.values())
    rebuilt = None
    for event in events:
        body = json.loads(json.dumps(event_body(event), sort_keys=True))
        copy = decode_event(
            record_type(event),
            event.originator_id,
            event.originator_version,
            event.timestamp,
            body,
        )
        assert copy == event
        rebuilt = copy.mutate(rebuilt)
    assert isinstance(rebuilt, Tournament)
    assert rebuilt.state == t.state
