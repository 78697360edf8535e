"""The per-game part of the statistics view: a finished game's figures and rows.

Why apart from :mod:`projections.stats`: the view owns the tables and the
batch; this is the pure work on one game's stored log (decoded with
:mod:`domain.ledger.records`), so it reads without any SQL.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.contract.core import GameFacts
from domain.games import find_game
from domain.ledger.records import decode_move, snapshot_game_state
from projections.base import LogEvent

NO_SEAT = -1
"""The seat of a facet that belongs to no seat."""


def summarise(
    game: dict[str, Any],
    log: list[tuple[int, str, bytes]],
    snapshot: tuple[int, bytes] | None,
) -> dict[str, Any]:
    """One finished game's figures from its log (and newest snapshot, if any)."""
    ruleset = find_game(game["game_type"])
    hook = ruleset.event_facets
    state = None
    since = 0
    if ruleset.facts is not None:
        setup = ruleset.setup_model.model_validate(game["setup"])
        if snapshot is not None:
            since = snapshot[0]
            state = snapshot_game_state(snapshot[1], ruleset)
        else:
            state = ruleset.initial_state(setup)
    moves = 0
    facets: Counter[tuple[int, str, str]] = Counter()
    first_facet = None
    evolve = ruleset.evolve
    for version, topic, raw in log:
        need_state = state is not None and version > since
        actor, decision, payload = decode_move(
            topic, raw, ruleset, payload=hook is not None or need_state
        )
        if actor is not None and version == decision + 1:
            moves += 1
        if payload is None:
            continue
        if need_state:
            state = evolve(state, payload)
        if hook is not None:
            for f in hook(payload):
                facets[(NO_SEAT if f.seat is None else f.seat, f.key, f.value)] += 1
                if f.key == "first_player" and first_facet is None:
                    first_facet = int(f.value)
    facts = (
        ruleset.facts(ruleset.setup_model.model_validate(game["setup"]), state)
        if state is not None and ruleset.facts is not None
        else GameFacts()
    )
    first = facts.first_player if facts.first_player is not None else first_facet
    return {
        "events": len(log),
        "moves": moves,
        "facts": facts,
        "first": first,
        "facets": facets,
        "ruleset": ruleset,
        "setup": game["setup"],
    }


def append_rows(
    event: LogEvent,
    game: dict[str, Any],
    summary: dict[str, Any],
    updates: list,
    results: list,
    seat_facets: list,
    totals: Counter,
) -> None:
    """Append one concluded game's rows to the batch's row lists."""
    outcome = event.body["outcome"]
    facts: GameFacts = summary["facts"]
    gid, gt = event.game_id, game["game_type"]
    ruleset = summary["ruleset"]
    groups = ruleset.player_seats(ruleset.setup_model.model_validate(game["setup"]))
    owner = {seat: i for i, seats in enumerate(groups) for seat in seats}
    pids = game["player_ids"]
    first = summary["first"]
    updates.append(
        (
            event.position,
            event.timestamp,
            summary["events"],
            summary["moves"],
            facts.rounds,
            first,
            outcome["termination"],
            list(outcome["ranks"]),
            list(outcome["scores"]),
            list(outcome["winners"]),
            gid,
        )
    )
    winners = set(outcome["winners"])
    for seat, (rank, score) in enumerate(zip(outcome["ranks"], outcome["scores"])):
        pid = pids[owner[seat]] if pids and seat in owner else None
        results.append(
            (
                gid,
                gt,
                seat,
                pid,
                len(groups),
                rank,
                score,
                seat in winners,
                None if first is None else seat == first,
                event.position,
            )
        )
    per_seat: Counter[tuple[int, str, str]] = Counter()
    for f in facts.seat_facets:
        per_seat[(f.seat, f.key, f.value)] += 1
    for (seat, key, value), n in summary["facets"].items():
        totals[(gt, key, value, seat)] += n
        if seat != NO_SEAT:
            per_seat[(seat, key, value)] += n
    for (seat, key, value), n in sorted(per_seat.items()):
        seat_facets.append((gid, gt, seat, key, value, n))
