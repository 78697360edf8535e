"""Our Swiss pairing beside a FIDE Dutch implementation, on the same tournaments.

``python -m bench.pairing_dutch [--tournaments N] [--seed S]`` plays random
2-player Swiss tournaments (6-15 players, some odd so byes occur, 5-7
rounds, players of random strength, draws possible) and, before every round,
asks both pairers to pair *the same standings and history*: our
:func:`domain.tournament.pairing.swiss_pairing` with
:func:`~domain.tournament.pairing.seat_order` for who sits first ("white"),
and ``caissify-pairings``' Dutch engine (FIDE C.04.3) fed the same scores,
seed order (as ratings), colour and float histories, earlier pairs and byes.
The tournament goes on with one engine's pairing (``--drive``, ours by
default, so the standings are ours'); per-round figures compare both
proposals on identical input, and a second pass driven by Dutch gives the
end-of-tournament colour balance each engine reaches by itself.

It prints one table (and ``--json`` the figures): rematches, score gap per
pair (|points a - points b|, in our 3/1/0 match points), players whose
colour difference reached 3 or who got the same colour three times running,
byes to the same player twice, players left without a game beyond an odd
count's one bye, and time per pairing.  Nothing asserts;
``docs/decisions.md`` ("Tournaments") records the measured run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from typing import Any

from domain.tournament.pairing import meetings, seat_order, swiss_pairing

Pairs = list[tuple[str, str]]
"""One round's tables, seat 0 ("white") first."""


def ours(
    players: list[str], scores: dict[str, float], history: Pairs, byes: list[str]
) -> tuple[Pairs, list[str]]:
    plan = swiss_pairing(players, scores, history, byes)
    tables = [tuple(seat_order(t, history, players)) for t in plan.tables]
    return [(a, b) for a, b in tables], list(plan.byes)


def dutch(
    players: list[str],
    scores: dict[str, float],
    rounds: list[Pairs],
    byes: list[str],
    round_scores: list[dict[str, float]],
    round_number: int,
    total_rounds: int,
) -> tuple[Pairs, list[str]]:
    from caissify_pairings import generate_pairings

    history = [t for played in rounds for t in played]
    ids = {p: i + 1 for i, p in enumerate(players)}
    names = {i: p for p, i in ids.items()}
    colours: dict[str, list[str]] = {p: [] for p in players}
    floats: dict[str, list[str]] = {p: [] for p in players}
    for number, played in enumerate(rounds):
        before = round_scores[number]
        sat = set()
        for white, black in played:
            if white not in colours or black not in colours:
                continue
            colours[white].append("white")
            colours[black].append("black")
            for me, other in ((white, black), (black, white)):
                diff = before.get(me, 0) - before.get(other, 0)
                floats[me].append("down" if diff > 0 else "up" if diff < 0 else "none")
                sat.add(me)
        for p in players:
            if p not in sat:
                floats[p].append("none")
    entries = [
        {
            "id": ids[p],
            "name": p,
            "score": float(scores.get(p, 0)),
            "rating": 2400 - ids[p],  # seed order, as ours ranks ties
            "starting_number": ids[p],
            "color_hist": colours[p],
            "float_history": floats[p],
            "bye_count": byes.count(p),
        }
        for p in players
    ]
    earlier = {(ids[a], ids[b]) for a, b in history if a in ids and b in ids}
    with (
        warnings.catch_warnings(),
        contextlib.redirect_stdout(io.StringIO()),  # it prints forced byes
    ):
        warnings.simplefilter("ignore")
        got = generate_pairings("dutch", entries, earlier, round_number, total_rounds)
    tables: Pairs = []
    bye: list[str] = []
    for row in got:
        if row.get("black_id") is None:
            bye.append(names[row["white_id"]])
        else:
            tables.append((names[row["white_id"]], names[row["black_id"]]))
    return tables, bye


def play(
    tables: Pairs, strength: dict[str, float], rnd: random.Random
) -> dict[str, float]:
    """Match points of one round: 3 a win, 1 a draw (Elo-like odds, 20% draws)."""
    points: dict[str, float] = {}
    for a, b in tables:
        p_a = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
        roll = rnd.random()
        if roll < 0.2:
            points[a] = points.get(a, 0) + 1
            points[b] = points.get(b, 0) + 1
        elif roll < 0.2 + 0.8 * p_a:
            points[a] = points.get(a, 0) + 3
        else:
            points[b] = points.get(b, 0) + 3
    return points


def figures(
    tables: Pairs, scores: dict[str, float], history: Pairs
) -> tuple[int, list[float]]:
    met = meetings(history)
    rematches = sum(1 for a, b in tables if met[frozenset((a, b))])
    gaps = [abs(scores.get(a, 0) - scores.get(b, 0)) for a, b in tables]
    return rematches, gaps


def colour_trouble(rounds: list[Pairs], players: list[str]) -> tuple[int, int]:
    """Players whose white-black difference reached 3; players given one
    colour three rounds running (both forbidden to the Dutch system)."""
    diff: Counter[str] = Counter()
    worst: Counter[str] = Counter()
    runs: dict[str, list[int]] = {p: [] for p in players}
    for rnd_tables in rounds:
        for white, black in rnd_tables:
            diff[white] += 1
            diff[black] -= 1
            worst[white] = max(worst[white], abs(diff[white]))
            worst[black] = max(worst[black], abs(diff[black]))
            runs[white].append(0)
            runs[black].append(1)
    imbalanced = sum(1 for p in players if worst[p] >= 3)
    three = sum(
        1
        for p in players
        if any(len(set(runs[p][i : i + 3])) == 1 for i in range(len(runs[p]) - 2))
    )
    return imbalanced, three


def tournament(seed: int, drive: str, stats: dict[str, dict[str, list[float]]]) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(6, 15)
    total = rnd.randint(5, 7)
    players = [f"p{i:02d}" for i in range(n)]
    strength = {p: rnd.gauss(1500, 200) for p in players}
    scores: dict[str, float] = {}
    history: Pairs = []
    byes: list[str] = []
    round_scores: list[dict[str, float]] = []
    rounds: list[Pairs] = []
    for number in range(1, total + 1):
        proposals = {}
        for name in ("ours", "dutch"):
            started = time.perf_counter()
            if name == "ours":
                tables, bye = ours(players, scores, history, byes)
            else:
                tables, bye = dutch(
                    players, scores, rounds, byes, round_scores, number, total
                )
            elapsed = time.perf_counter() - started
            rematches, gaps = figures(tables, scores, history)
            s = stats[name]
            s["rematches"].append(rematches)
            s["gap"].extend(gaps)
            s["ms"].append(elapsed * 1000)
            s["repeat_bye"].append(sum(1 for p in bye if p in byes))
            s["unpaired"].append(len(bye) - len(players) % 2)
            proposals[name] = (tables, bye)
        tables, bye = proposals[drive]
        round_scores.append(dict(scores))
        rounds.append(tables)
        history.extend(tables)
        byes.extend(bye)
        for p in bye:
            scores[p] = scores.get(p, 0) + 3
        for p, got in play(tables, strength, rnd).items():
            scores[p] = scores.get(p, 0) + got
    imbalanced, three = colour_trouble(rounds, players)
    stats[drive]["colour_diff_3"].append(imbalanced)
    stats[drive]["same_colour_3x"].append(three)
    stats[drive]["players"].append(n)


def run(count: int, seed: int) -> dict[str, Any]:
    keys = (
        "rematches",
        "gap",
        "ms",
        "repeat_bye",
        "unpaired",
        "colour_diff_3",
        "same_colour_3x",
        "players",
    )
    out: dict[str, Any] = {}
    for drive in ("ours", "dutch"):
        stats: dict[str, dict[str, list[float]]] = {
            name: {k: [] for k in keys} for name in ("ours", "dutch")
        }
        for t in range(count):
            tournament(seed + t, drive, stats)
        out[drive] = stats
    return out


def summary(raw: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per engine: per-round figures on the standings ``ours`` produced, and
    end-of-tournament colour figures each engine reaches when it drives."""
    same = raw["ours"]
    table: dict[str, dict[str, float]] = {}
    for name in ("ours", "dutch"):
        s = same[name]
        own = raw[name][name]
        table[name] = {
            "rounds paired": len(s["rematches"]),
            "rematches": sum(s["rematches"]),
            "mean score gap per pair": round(statistics.mean(s["gap"]), 3),
            "pairs with a score gap": sum(1 for g in s["gap"] if g),
            "repeated byes": sum(s["repeat_bye"]),
            "players left unpaired beyond one bye": sum(s["unpaired"]),
            "players reaching colour difference 3": sum(own["colour_diff_3"]),
            "players with one colour 3 rounds running": sum(own["same_colour_3x"]),
            "players (all tournaments)": sum(own["players"]),
            "median ms per pairing": round(statistics.median(s["ms"]), 2),
            "max ms per pairing": round(max(s["ms"]), 1),
        }
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import caissify_pairings  # noqa: F401
    except ImportError:
        print(
            "caissify-pairings is not installed (pip install caissify-pairings)",
            file=sys.stderr,
        )
        return 1
    table = summary(run(args.tournaments, args.seed))
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    width = max(len(k) for k in table["ours"])
    print(f"{'':{width}}  {'ours':>10}  {'dutch':>10}")
    for key in table["ours"]:
        print(f"{key:{width}}  {table['ours'][key]:>10}  {table['dutch'][key]:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
