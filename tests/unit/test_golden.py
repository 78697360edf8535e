"""The golden corpus replays and audits with today's code.

Each file under ``tests/golden/`` is a complete game exported as the ledger
stored it, under one rules version (``legacy/``: stored before rules were
versioned).  If a code change alters any decision, outcome or encoding of a
recorded game, its audit fails here: such a change must come behind a new
rules version (``python -m tests.golden.regenerate`` then adds that
version's games and keeps the old ones).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from domain.audit.export import verify_lines
from domain.contract.core import Outcome
from domain.games import all_games, find_ruleset
from domain.games.vaalbara import GAME, GAME_V1
from domain.ledger.records import CONCLUDED_TYPE as CONCLUDED
from domain.ledger.stored_events import decode_record
from tests.golden.regenerate import check

GOLDEN = Path(__file__).parents[1] / "golden"
FILES = sorted(GOLDEN.glob("**/*.ndjson.gz"))


def lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


def events(path: Path) -> list[dict]:
    return [json.loads(x) for x in lines(path) if json.loads(x)["kind"] == "event"]


def recorded_version(path: Path) -> int:
    folder = path.parent.name
    return 1 if path.parent.parent.name == "legacy" else int(folder.removeprefix("v"))


def legacy_games() -> set[str]:
    """The game types ``legacy/`` holds games of."""
    return {p.parent.name for p in GOLDEN.glob("legacy/*/*.ndjson.gz")}


def test_every_rules_version_has_its_games_and_each_replays_from_what_it_records():
    """A version with no files yet needs one game per example of its ruleset:
    a new game or rules version fails here until ``python -m
    tests.golden.regenerate`` has written them."""
    assert check() == []


def test_every_game_with_legacy_games_is_still_registered():
    """Games registered since rules were versioned have no legacy games."""
    assert legacy_games() <= {game.name for game in all_games()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_golden_game_replays_and_audits_under_its_own_rules_version(path):
    report = verify_lines(lines(path))
    assert report.ok, [str(f) for f in report.failures]
    assert report.concluded and report.seed_source == "revealed"
    assert report.ruleset_version == recorded_version(path)
    decisions = {e["record"]["body"].get("decision") for e in events(path)[1:]}
    assert report.decisions_rederived == len(decisions)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_golden_game_loads_into_the_aggregate_with_its_recorded_outcome(path):
    game = None
    for item in events(path):
        event = decode_record(
            json.loads(lines(path)[0])["game_id"],
            item["version"],
            item["type"],
            item["record"],
        )
        game = event.mutate(game)
    last = events(path)[-1]
    assert last["type"] == CONCLUDED
    assert game.ruleset.version == recorded_version(path)
    assert game.outcome == Outcome.model_validate(last["record"]["body"]["outcome"])


@pytest.mark.parametrize(
    "path",
    sorted(GOLDEN.glob("vaalbara/v1/*-tie.ndjson.gz"))
    + sorted(GOLDEN.glob("legacy/vaalbara/*-tie.ndjson.gz")),
    ids=lambda p: str(p.relative_to(GOLDEN)),
)
def test_old_vaalbara_games_verify_only_because_they_keep_rules_version_1(path):
    """Vaalbara v2 ranks seats tied below the winner equally; these v1 games
    have such a tie, so scoring them with v2 would contradict the record."""
    records = events(path)
    created = records[0]["record"]["body"]
    assert find_ruleset("vaalbara", created.get("ruleset_version", 1)) is GAME_V1
    state = GAME_V1.initial_state(GAME_V1.setup_model.model_validate(created["setup"]))
    for item in records[1:-1]:
        payload = GAME_V1.events_by_name[item["type"].partition(".")[2]]
        state = GAME_V1.evolve(
            state, payload.model_validate(item["record"]["body"]["payload"])
        )
    recorded = Outcome.model_validate(records[-1]["record"]["body"]["outcome"])
    assert GAME_V1.outcome(state) == recorded
    assert GAME.outcome(state) != recorded
    assert GAME.outcome(state).winners == recorded.winners


def test_a_game_dealt_from_another_content_pack_fails_its_audit(monkeypatch):
    """The recorded content hash pins the pack: a changed pack file (same
    name, other cards) would replay the game against the wrong cards."""
    import domain.audit.game_audit

    path = GOLDEN / "thalara" / "v1" / "2p-standard.ndjson.gz"
    monkeypatch.setattr(domain.audit.game_audit, "content_hash", lambda *_: "0" * 64)
    report = verify_lines(lines(path))
    assert [(f.version, f.check) for f in report.failures][:1] == [(1, "content")]
