"""Stats and fairness views against real PostgreSQL: every query equals the
same number recomputed from the ledger's own games, and a rebuild (with or
without snapshots) reproduces the tables exactly."""

from __future__ import annotations

import random
import statistics
import uuid
from collections import Counter

import pytest

from domain.games import find_game
from domain.games.vaalbara.content import LANDS
from domain.ledger.aggregate import Game
from projections import stats as stats_view
from projections import stats_queries as q
from projections.fairness import FairnessView, fairness, first_player_fairness
from projections.runner import ViewRunner
from projections.stats import StatsView

pytestmark = pytest.mark.postgres

TABLES = StatsView.tables + FairnessView.tables
SETUPS = [
    ("thalara", {"players": 2}),
    ("thalara", {"players": 2, "characters": ["canto", "myrja"]}),
    ("thalara", {"players": 2, "mode": "casual_chaos"}),
    ("terralore", {"players": 2}),
    ("terralore", {"players": 2}),
    ("terralore", {"players": 2}),
    ("vaalbara", {"players": 3}),
    ("vaalbara", {"players": 3}),
    ("thorgal", {"players": 1}),
    ("thorgal", {"players": 3}),
]
GAME_TYPES = ("thalara", "terralore", "vaalbara", "thorgal")


def play(
    ledger, game_type: str, setup: dict, players: tuple[str, ...], seed: int
) -> tuple[uuid.UUID, int]:
    ruleset = find_game(game_type)
    created = ledger.create_game(game_type, setup, player_ids=players)
    rnd, moves = random.Random(seed), 0
    while not (game := ledger.load(created.game_id)).is_over:
        seat = rnd.choice(game.to_act())
        ledger.submit(
            created.game_id,
            ruleset.random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
        moves += 1
    return created.game_id, moves


def dump(ledger) -> dict[str, list]:
    with ledger.datastore.transaction(commit=False) as curs:
        out = {}
        for table in TABLES:
            curs.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4")
            out[table] = [tuple(r.values()) for r in curs.fetchall()]
        return out


@pytest.fixture(scope="module")
def ledger(isolated_ledger):
    """A database of its own: the session's server runs these views in the background."""
    return isolated_ledger


@pytest.fixture(scope="module")
def world(ledger):
    tag = uuid.uuid4().hex[:6]
    names = [f"{tag}-{n}" for n in ("ann", "bob", "cyd", "dee")]
    mine = {}
    for i, (game_type, setup) in enumerate(SETUPS * 2):
        rnd = random.Random(i)
        table = tuple(rnd.sample(names, setup["players"]))
        game_id, moves = play(ledger, game_type, setup, table, seed=100 + i)
        mine[game_id] = (table, moves)
    runners = [
        ViewRunner(ledger.datastore, view, batch_size=50)
        for view in (StatsView(), FairnessView())
    ]
    for runner in runners:
        runner.ensure_tables()
        runner.catch_up()
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute("SELECT game_id, game_type FROM ledger_games")
        every = {r["game_id"]: r["game_type"] for r in curs.fetchall()}
    games = {}
    for game_id, game_type in every.items():
        game = ledger.load(game_id)
        games[game_id] = (game_type, game, ledger.store.events(game_id))
    return {"names": names, "mine": mine, "games": games, "runners": runners}


def query(ledger, fn, *args, **kwargs):
    with ledger.datastore.transaction(commit=False) as curs:
        return fn(curs, *args, **kwargs)


def finished(world, game_type):
    return [
        (gid, g, evs)
        for gid, (gt, g, evs) in world["games"].items()
        if gt == game_type and g.is_over
    ]


def payloads(events, cls_name):
    return [
        e.payload
        for e in events
        if isinstance(e, Game.Decided) and type(e.payload).__name__ == cls_name
    ]


def moves_of(events) -> int:
    return len(
        {
            e.decision
            for e in events
            if isinstance(e, Game.Decided) and e.actor is not None
        }
    )


def table(rows, column) -> Counter:
    """``{(value, "games"|"wins"): n}`` without zero entries, like ``+Counter``."""
    return +Counter({(r[column], k): r[k] for r in rows for k in ("games", "wins")})


def percentile(values, p):
    xs = sorted(values)
    k = (len(xs) - 1) * p
    lo = int(k)
    return xs[lo] + (xs[min(lo + 1, len(xs) - 1)] - xs[lo]) * (k - lo)


def test_games_started_and_finished(ledger, world):
    rows = {r["game_type"]: r for r in query(ledger, q.games_count)}
    for game_type in GAME_TYPES:
        all_of_type = [g for gt, g, _ in world["games"].values() if gt == game_type]
        assert rows[game_type]["started"] == len(all_of_type)
        assert rows[game_type]["finished"] == sum(g.is_over for g in all_of_type)


def test_moves_count_the_submitted_commands(ledger, world):
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT game_id, moves, events FROM stats_games WHERE game_id = ANY(%s)",
            (list(world["mine"]),),
        )
        rows = {r["game_id"]: r for r in curs.fetchall()}
    for game_id, (_, moves) in world["mine"].items():
        events = world["games"][game_id][2]
        assert rows[game_id]["moves"] == moves == moves_of(events)
        assert rows[game_id]["events"] == sum(
            isinstance(e, Game.Decided) for e in events
        )


ROUNDS = {
    "thalara": lambda evs: len(payloads(evs, "RoundStarted")),
    "terralore": lambda evs: len(payloads(evs, "TurnStarted")),
    "vaalbara": lambda evs: len(payloads(evs, "RoundStarted")),
    "thorgal": lambda evs: (
        1 + len(payloads(evs, "RoundAdvanced"))
    ),  # round 1 is never "advanced" to
}


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_length_distributions(ledger, world, game_type):
    games = finished(world, game_type)
    assert games
    expected = {
        "rounds": [ROUNDS[game_type](evs) for _, _, evs in games],
        "moves": [moves_of(evs) for _, _, evs in games],
        "seconds": [
            (evs[-1].timestamp - evs[0].timestamp).total_seconds()
            for _, _, evs in games
        ],
    }
    for metric, values in expected.items():
        got = query(ledger, q.length_distribution, game_type, metric, buckets=4)
        assert got["count"] == len(values)
        assert got["min"] == pytest.approx(min(values)) and got["max"] == pytest.approx(
            max(values)
        )
        assert got["median"] == pytest.approx(statistics.median(values), abs=1e-6)
        assert got["p90"] == pytest.approx(percentile(values, 0.9), abs=1e-6)
        assert sum(b["count"] for b in got["histogram"]) == len(values)
        for b in got["histogram"][:-1]:
            assert (
                b["count"] == sum(b["lo"] <= v < b["hi"] for v in values)
                or metric == "seconds"
            )


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_scores_and_win_rate_by_seat(ledger, world, game_type):
    games = finished(world, game_type)
    scores = [s for _, g, _ in games for s in g.outcome.scores]
    got = query(ledger, q.score_distribution, game_type)
    assert got["count"] == len(scores) and got["mean"] == pytest.approx(
        statistics.mean(scores)
    )
    assert got["median"] == pytest.approx(statistics.median(scores))
    expected = Counter()
    for _, g, _ in games:
        players = len(
            find_game(game_type).player_seats(g.setup)
        )  # solo Thorgal: 1 player, 2 seats
        for seat in range(len(g.outcome.ranks)):
            expected[(players, seat, "games")] += 1
            expected[(players, seat, "wins")] += seat in g.outcome.winners
    rows = query(ledger, q.win_rate_by_seat, game_type)
    assert sum(r["games"] for r in rows) == len(scores) > 0
    for row in rows:
        assert row["games"] == expected[(row["players"], row["seat"], "games")]
        assert row["wins"] == expected[(row["players"], row["seat"], "wins")]
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"])


def test_thalara_win_rate_by_first_player_and_character(ledger, world):
    games = finished(world, "thalara")
    first, chars = Counter(), Counter()
    for _, g, evs in games:
        starter = payloads(evs, "FirstPlayerChosen")[0].seat
        for seat, player in enumerate(g.state.players):
            won = seat in g.outcome.winners
            first[(seat == starter, "games")] += 1
            first[(seat == starter, "wins")] += won
            chars[(player.character, "games")] += 1
            chars[(player.character, "wins")] += won
    rows = query(ledger, q.win_rate_by_first_player, "thalara")
    assert table(rows, "first") == +first
    rows = query(ledger, q.win_rate_by_facet, "thalara", "character")
    assert table(rows, "value") == +chars
    fp = query(ledger, first_player_fairness, "thalara")
    counts = Counter(
        payloads(evs, "FirstPlayerChosen")[0].seat
        for _, _, evs in world["games"].values()
        if payloads(evs, "FirstPlayerChosen")
    )
    assert fp[0]["observed"] == [counts[0], counts[1]] and 0 <= fp[0]["p_value"] <= 1


def test_vaalbara_win_rate_by_clan_land_types_and_character_played(ledger, world):
    games = finished(world, "vaalbara")
    expected = {
        "clan": Counter(),
        "land_types": Counter(),
        "character_played": Counter(),
    }
    for _, g, evs in games:
        played = {}
        for e in payloads(evs, "CharactersRevealed"):
            for seat, name in enumerate(e.characters):
                played.setdefault(seat, set()).add(name)
        for seat, p in enumerate(g.state.players):
            won = seat in g.outcome.winners
            values = {
                "clan": [p.clan],
                "land_types": [str(len({LANDS[c].type for c in p.realm}))],
                "character_played": sorted(played[seat]),
            }
            for key, vals in values.items():
                for v in vals:
                    expected[key][(v, "games")] += 1
                    expected[key][(v, "wins")] += won
    for key, counts in expected.items():
        rows = query(ledger, q.win_rate_by_facet, "vaalbara", key)
        assert table(rows, "value") == +counts


def test_terralore_card_play_frequency(ledger, world):
    counts, per_seat = Counter(), Counter()
    for _, _, evs in finished(world, "terralore"):
        for e in payloads(evs, "CreaturePlayed") + payloads(evs, "SkillPlayed"):
            counts[e.card] += 1
            per_seat[(e.seat, e.card)] += 1
    rows = query(ledger, q.facet_frequency, "terralore", "card_played", limit=1000)
    assert {r["value"]: r["count"] for r in rows} == counts
    assert [r["count"] for r in rows] == sorted(counts.values(), reverse=True)
    assert sum(r["share"] for r in rows) == pytest.approx(1)
    rows = query(
        ledger, q.facet_frequency, "terralore", "card_played", by_seat=True, limit=1000
    )
    assert {(r["seat"], r["value"]): r["count"] for r in rows} == per_seat
    page = query(
        ledger, q.facet_frequency, "terralore", "card_played", limit=3, offset=2
    )
    assert [r["count"] for r in page] == sorted(counts.values(), reverse=True)[2:5]


def test_thorgal_rounds_first_player_characters_and_action_cards(ledger, world):
    games = finished(world, "thorgal")
    with ledger.datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT game_id, rounds, first_player, seats, players FROM stats_games"
            " WHERE game_type = 'thorgal' AND ended_position IS NOT NULL"
        )
        rows = {r["game_id"]: r for r in curs.fetchall()}
    assert set(rows) == {gid for gid, _, _ in games} and len(rows) == 4
    first, chars, cards = Counter(), Counter(), Counter()
    for gid, g, evs in games:
        (started,) = payloads(evs, "AdventureStarted")
        row = rows[gid]
        assert (row["rounds"], row["first_player"]) == (g.state.round, started.first)
        assert (
            row["seats"] == g.state.seats == len(started.characters)
            and row["players"] <= row["seats"]
        )
        players = row["players"]
        for seat, character in enumerate(started.characters):
            won = seat in g.outcome.winners
            first[(players, seat == started.first, "games")] += 1
            first[(players, seat == started.first, "wins")] += won
            chars[(character, "games")] += 1
            chars[(character, "wins")] += won
        for e in payloads(evs, "ChipPlaced"):
            cards[e.card] += 1
    got = query(ledger, q.win_rate_by_first_player, "thorgal")
    assert (
        +Counter(
            {
                (r["players"], r["first"], k): r[k]
                for r in got
                for k in ("games", "wins")
            }
        )
        == +first
    )
    assert (
        table(query(ledger, q.win_rate_by_facet, "thorgal", "character"), "value")
        == +chars
    )
    rows = query(ledger, q.facet_frequency, "thorgal", "action_card", limit=1000)
    assert {r["value"]: r["count"] for r in rows} == cards and sum(cards.values()) > 0
    fp = {
        r["distribution"]: r["observed"]
        for r in query(ledger, first_player_fairness, "thorgal")
    }
    expected = {}
    for _, _, evs in world["games"].values():
        for started in payloads(evs, "AdventureStarted"):
            expected.setdefault(
                f"first_player:players={started.seats}", [0] * started.seats
            )[started.first] += 1
    assert fp == expected


def test_player_history_is_paged_in_log_order(ledger, world):
    name = world["names"][0]
    expected = []
    for game_id, (table, _) in world["mine"].items():
        if name in table:
            g = world["games"][game_id][1]
            seat = table.index(name)
            expected.append(
                (game_id, seat, g.outcome.ranks[seat], g.outcome.scores[seat])
            )
    rows = query(ledger, q.player_history, name, limit=1000)
    assert [(r["game_id"], r["seat"], r["rank"], r["score"]) for r in rows] == expected
    page = query(ledger, q.player_history, name, limit=2, offset=1)
    assert [r["game_id"] for r in page] == [e[0] for e in expected[1:3]]
    assert query(ledger, q.player_history, name, "vaalbara", limit=1000) == [
        r for r in rows if r["game_type"] == "vaalbara"
    ]


def test_fairness_counts_every_d6_and_shuffle(ledger, world):
    rolls = Counter(
        r
        for _, _, evs in world["games"].values()
        for e in payloads(evs, "RevealOrderDecided")
        for r in e.rolls
    )
    d6 = query(ledger, fairness, "terralore", "d6")[0]
    assert d6["observed"] == [rolls[v] for v in range(1, 7)]
    assert d6["dof"] == 5 and d6["expected"] == pytest.approx(sum(rolls.values()) / 6)
    assert 1e-4 < d6["p_value"] <= 1
    shuffles = {r["distribution"]: r for r in query(ledger, fairness, "vaalbara")}
    clan = shuffles["clan_deck_shuffle:n=12"]
    assert clan["kind"] == "shuffle" and clan["dof"] == 121
    decks = sum(
        len(payloads(evs, "ClanDeckShuffled"))
        for gt, _, evs in world["games"].values()
        if gt == "vaalbara"
    )
    assert clan["total"] == 12 * decks
    assert {r["distribution"] for r in query(ledger, fairness, "thalara")} >= {
        "artifact_shuffle:n=15"
    }


def test_fairness_counts_every_thorgal_die_face_and_deck_shuffle(ledger, world):
    thorgal = [evs for gt, _, evs in world["games"].values() if gt == "thorgal"]
    faces = Counter(
        f for evs in thorgal for e in payloads(evs, "DiceRolled") for f in e.faces
    )
    faces.update(e.face for evs in thorgal for e in payloads(evs, "DieRerolled"))
    cells: dict[str, Counter] = {}
    for evs in thorgal:
        for e in payloads(evs, "DeckShuffled"):
            n, ranked = len(e.cards), sorted(e.cards)
            if n >= 2:
                cell = cells.setdefault(f"{e.deck}_shuffle:n={n}", Counter())
                cell.update(
                    ranked.index(card) * n + pos for pos, card in enumerate(e.cards)
                )
    got = {r["distribution"]: r for r in query(ledger, fairness, "thorgal")}
    assert set(got) == {"d6", *cells} and sum(faces.values()) > 0
    assert (
        got["d6"]["observed"] == [faces[v] for v in range(6)] and got["d6"]["dof"] == 5
    )
    for name, counts in cells.items():
        n = int(name.rsplit("=", 1)[1])
        assert got[name]["kind"] == "shuffle" and got[name]["dof"] == (n - 1) ** 2
        assert got[name]["observed"] == [counts[v] for v in range(n * n)]
        assert 0 <= got[name]["p_value"] <= 1
    assert "terrain_shuffle:n=6" in cells and got["terrain_shuffle:n=6"][
        "total"
    ] == 6 * len(thorgal)


def test_synthetic_uniform_and_skewed_distributions(ledger, world):
    rnd = random.Random(5)
    with ledger.datastore.transaction(commit=False) as curs:
        fair = Counter(rnd.randrange(6) for _ in range(6000))
        skew = Counter(min(rnd.randrange(6), rnd.randrange(6)) for _ in range(6000))
        rows = [("synthetic", "fair", 6, v, fair[v]) for v in range(6)] + [
            ("synthetic", "skew", 6, v, skew[v]) for v in range(6)
        ]
        curs.executemany("INSERT INTO fairness_counts VALUES (%s,%s,%s,%s,%s)", rows)
        result = {
            r["distribution"]: r for r in fairness(curs, "synthetic")
        }  # never committed
    assert result["fair"]["p_value"] > 0.01
    assert result["skew"]["p_value"] < 1e-12


def test_rebuild_with_or_without_snapshots_gives_identical_tables(ledger, world):
    before = dump(ledger)
    assert before["stats_games"] and before["fairness_counts"]
    for runner in world["runners"]:
        runner.reset()
        runner.catch_up()
    assert dump(ledger) == before
    replaying = ViewRunner(
        ledger.datastore, StatsView(use_snapshots=False), batch_size=7
    )
    replaying.reset()
    replaying.catch_up()
    assert dump(ledger) == before


def test_reading_finished_games_in_small_chunks_gives_identical_tables(
    ledger, world, monkeypatch
):
    """The view reads finished games' logs ``GAMES_PER_READ`` at a time (to keep
    the gap between statements short); the chunking must not change a row."""
    before = dump(ledger)
    monkeypatch.setattr(stats_view, "GAMES_PER_READ", 2)
    runner = ViewRunner(ledger.datastore, StatsView(), batch_size=500)
    runner.reset()
    runner.catch_up()
    assert dump(ledger) == before


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_facet_rate_totals_equal_the_per_key_join(ledger, world, game_type):
    totals = query(ledger, q.win_rates_by_facets, game_type)
    keys = sorted({r["key"] for r in totals})
    assert keys  # every game type has seat facets (character, clan, ...)
    joined = [
        {"key": key, **r}
        for key in keys
        for r in query(ledger, q.win_rate_by_facet, game_type, key)
    ]
    assert sorted(totals, key=lambda r: (r["key"], r["value"])) == sorted(
        joined, key=lambda r: (r["key"], r["value"])
    )
    assert (
        sorted(
            {
                k["key"]
                for k in query(ledger, q.facet_keys, game_type)
                if k["source"] == "seat"
            }
        )
        == keys
    )


def test_the_dashboards_headlines_and_newest_games_match_the_ledger(ledger, world):
    heads = query(ledger, q.headlines)
    for game_type in GAME_TYPES:
        all_of_type = [g for gt, g, _ in world["games"].values() if gt == game_type]
        finished_ = sum(g.is_over for g in all_of_type)
        assert (
            heads[game_type]["started"],
            heads[game_type]["finished"],
            heads[game_type]["live"],
        ) == (len(all_of_type), finished_, len(all_of_type) - finished_)
    # played one after another, so they ended in the order they were created
    terralore = [g for g, (gt, _, _) in world["games"].items() if gt == "terralore"]
    in_play_order = [g for g in world["mine"] if g in terralore]
    newest = query(ledger, q.newest_games, "terralore", finished=True, limit=2)
    assert [r["game_id"] for r in newest] == in_play_order[::-1][:2]
    assert all(r["termination"] for r in newest)
    assert query(ledger, q.newest_games, "terralore", finished=False) == []


def test_a_players_recent_games_are_their_history_newest_first(ledger, world):
    name = world["names"][0]
    history = query(ledger, q.player_history, name, "terralore", limit=1000)
    recent = query(ledger, q.recent_player_games, name, "terralore", limit=3)
    assert [(r["game_id"], r["seat"]) for r in recent] == [
        (r["game_id"], r["seat"]) for r in history[::-1][:3]
    ]
