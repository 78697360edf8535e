"""The shared kit's documented behaviours, one by one (domain/games/kit.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from domain.contract.core import Ruleset
from domain.games import kit


class Seat(BaseModel):
    model_config = ConfigDict(frozen=True)
    score: int = 0
    hand: tuple[str, ...] = ()


class Table(BaseModel):
    model_config = ConfigDict(frozen=True)
    players: tuple[Seat, ...]
    round: int = 1
    deck: tuple[str, ...] = ()


class TableView(BaseModel):
    round: int
    deck_size: int


def test_with_seat_changes_one_seat_and_shares_the_others():
    table = Table(players=(Seat(), Seat(score=2)))
    after = kit.with_seat(table, 0, score=5)
    assert [p.score for p in after.players] == [5, 2]
    assert after.players[1] is table.players[1]
    assert table.players[0].score == 0  # the old state is untouched


def test_removals_each_have_one_behaviour():
    cards = ("a", "b", "a", "c")
    assert kit.without_one(cards, "a") == ("b", "a", "c")
    assert kit.without_each(cards, ["a", "a"]) == ("b", "c")
    assert kit.without_all(cards, ["a", "z"]) == ("b", "c")
    with pytest.raises(ValueError):
        kit.without_one(cards, "z")
    with pytest.raises(ValueError):
        kit.without_each(cards, ["c", "c"])


def test_replace_where_updates_only_matches():
    seats = (Seat(score=1), Seat(score=2))
    assert [
        s.score for s in kit.replace_where(seats, lambda s: s.score == 2, score=9)
    ] == [1, 9]


def test_mirror_copies_shared_fields_and_only_those():
    view = kit.mirror(TableView, Table(players=(), round=3, deck=("x",)), deck_size=1)
    assert view == TableView(round=3, deck_size=1)


def test_seat_views_builds_in_seat_order():
    table = Table(players=(Seat(score=1), Seat(score=2)))
    assert kit.seat_views(table.players, lambda seat, p: (seat, p.score)) == (
        (0, 1),
        (1, 2),
    )


def test_evolver_dispatches_by_event_class_and_refuses_unknown_events():
    class Scored(BaseModel):
        seat: int

    class Unknown(BaseModel):
        pass

    evolve = kit.Evolver[Table]("toy")

    @evolve.on(Scored)
    def _(state: Table, e: Scored) -> Table:
        return kit.with_seat(state, e.seat, score=state.players[e.seat].score + 1)

    table = evolve(Table(players=(Seat(), Seat())), Scored(seat=1))
    assert [p.score for p in table.players] == [0, 1]
    with pytest.raises(TypeError, match="toy cannot apply Unknown"):
        evolve(table, Unknown())
    with pytest.raises(ValueError, match="two handlers"):
        evolve.on(Scored)(lambda s, e: s)


def test_evolver_include_adds_the_other_tables_handlers_and_refuses_overlaps():
    class Scored(BaseModel):
        seat: int

    class Dealt(BaseModel):
        card: str

    scoring = kit.Evolver[Table]("toy")
    dealing = kit.Evolver[Table]("toy")

    @scoring.on(Scored)
    def _(state: Table, e: Scored) -> Table:
        return kit.with_seat(state, e.seat, score=state.players[e.seat].score + 1)

    @dealing.on(Dealt)
    def _(state: Table, e: Dealt) -> Table:
        return state.model_copy(update={"deck": (*state.deck, e.card)})

    evolve = kit.Evolver[Table]("toy").include(scoring).include(dealing)

    table = evolve(evolve(Table(players=(Seat(),)), Scored(seat=0)), Dealt(card="x"))
    assert (table.players[0].score, table.deck) == (1, ("x",))
    with pytest.raises(ValueError, match="two handlers for Dealt"):
        evolve.include(dealing)


def test_evolver_records_copies_the_named_event_fields_into_the_state():
    class Shuffled(BaseModel):
        order: tuple[str, ...]

    class Drew(BaseModel):
        seat: int
        cards: tuple[str, ...]

    evolve = kit.Evolver[Table]("toy")
    evolve.records(Shuffled, deck="order")
    evolve.records_at_seat(Drew, hand="cards")

    table = evolve(Table(players=(Seat(), Seat())), Shuffled(order=("b", "a")))
    table = evolve(table, Drew(seat=1, cards=("x",)))
    assert table.deck == ("b", "a")
    assert [p.hand for p in table.players] == [(), ("x",)]
    with pytest.raises(ValueError, match="Shuffled has no field cards"):
        evolve.records(Shuffled, deck="cards")
    with pytest.raises(ValueError, match="Shuffled has no field seat"):
        evolve.records_at_seat(Shuffled, hand="order")


def test_evolver_records_sets_the_constants_an_event_stands_for():
    class RoundStarted(BaseModel):
        order: tuple[str, ...]

    class Passed(BaseModel):
        seat: int

    evolve = kit.Evolver[Table]("toy")
    evolve.records(RoundStarted, {"round": 2}, deck="order")
    evolve.records_at_seat(Passed, "players", {"hand": ()})

    table = Table(players=(Seat(hand=("a",)), Seat(hand=("b",))))
    table = evolve(table, RoundStarted(order=("c",)))
    table = evolve(table, Passed(seat=0))
    assert (table.round, table.deck) == (2, ("c",))
    assert [p.hand for p in table.players] == [(), ("b",)]


def test_ruleset_takes_each_function_from_its_module_by_the_layouts_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stand-in package whose every name holds a class named for its path
    (in a tuple, as the message types are): each ``Ruleset`` field holds
    exactly the name ``WIRING`` gives it."""
    import sys
    from types import ModuleType

    from domain.contract.core import Model, State

    def add(module: str, name: str, value: object) -> None:
        path = f"games.standin.{module}"
        made = sys.modules.get(path) or ModuleType(path)
        setattr(made, name, value)
        monkeypatch.setitem(sys.modules, path, made)

    monkeypatch.setitem(sys.modules, "games.standin", ModuleType("games.standin"))
    for module, name in kit.WIRING.values():
        add(module, name, (type(f"{module}.{name}", (), {}),))
    models = {"setup": Model, "view": Model, "state": State}
    for field, (module, suffix) in kit.MODELS.items():
        add(module, f"Standin{suffix}", type(f"Standin{suffix}", (models[module],), {}))

    def build() -> Any:
        return kit.ruleset(
            "games.standin", title="Stand-in", min_players=2, max_players=2
        )

    game = build()
    for field, (module, name) in kit.WIRING.items():
        assert getattr(game, field)[0].__name__ == f"{module}.{name}", field
    assert game.redact[0].__name__ == "view.redact"
    assert game.name == "standin"
    assert [getattr(game, field).__name__ for field in kit.MODELS] == [
        "StandinSetup",
        "StandinView",
        "StandinState",
    ]

    monkeypatch.delattr(sys.modules["games.standin.rules"], "random_command")
    monkeypatch.delitem(sys.modules, "games.standin.rules.leaving")
    plain = build()
    assert plain.sampler is None and plain.autoplay is None
    assert plain.consequence is Ruleset.__dataclass_fields__["consequence"].default
    with pytest.raises(TypeError, match="player_seats"):
        kit.ruleset(
            "games.standin", title="", min_players=2, max_players=2, player_seats=id
        )

    monkeypatch.delattr(sys.modules["games.standin.rules"], "is_over")
    with pytest.raises(AttributeError, match="no rules.is_over and no phase"):
        build()
    phased = type("StandinState", (State,), {"__annotations__": {"phase": str}})
    add("state", "StandinState", phased)
    assert build().is_over is kit.phase_is_over
    assert kit.phase_is_over(phased(phase="over"))
    assert not kit.phase_is_over(phased(phase="play"))

    monkeypatch.delattr(sys.modules["games.standin.rules"], "outcome")
    with pytest.raises(AttributeError, match="outcome"):
        build()


def test_an_optional_hooks_module_that_fails_to_import_is_not_taken_for_absent(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "brokengame").mkdir()
    (tmp_path / "brokengame" / "__init__.py").write_text("")
    (tmp_path / "brokengame" / "leaving.py").write_text("import no_such_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert kit._defined("brokengame.rules", "consequence") is None
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        kit._defined("brokengame.leaving", "consequence")


def test_replaced_at_replaces_one_position_and_refuses_a_missing_one():
    assert kit.replaced_at(("w", "w", "b"), 1, "y") == ("w", "y", "b")
    assert kit.replaced_at((1, 2), -1, 9) == (1, 9)
    with pytest.raises(IndexError):
        kit.replaced_at(("w",), 1, "y")


def test_character_packs_offer_each_packs_characters_per_seat(tmp_path):
    from types import SimpleNamespace

    for name in ("big", "small"):
        (tmp_path / f"{name}.json").write_text("{}")
    characters = {"big": "abcde", "small": "ab"}

    def load(name: str) -> SimpleNamespace:
        cast = [SimpleNamespace(id=c) for c in characters[name]]
        return SimpleNamespace(label=name.title(), characters=cast)

    big, small = kit.character_packs(
        tmp_path, load, min_players=2, max_players=4, copies=1
    )
    assert (big.name, big.label, big.min_players, big.max_players) == (
        "big",
        "Big",
        2,
        4,
    )
    assert small.max_players == 2
    assert small.choices[0].values == ("a", "b") and small.choices[0].per_seat
    twice = kit.character_packs(tmp_path, load, min_players=2, max_players=4, copies=2)
    assert twice[1].max_players == 4


def test_a_decision_applies_each_event_and_records_only_those_applied():
    def evolve(table: Table, event: int) -> Table:
        if event < 0:
            raise TypeError("refused")
        return table.model_copy(update={"round": table.round + event})

    decision = kit.Decision(Table(players=()), evolve)
    decision.emit(2)
    decision.emit(3)
    assert decision.state.round == 6 and decision.events == [2, 3]
    with pytest.raises(TypeError):
        decision.emit(-1)
    assert decision.events == [2, 3] and decision.state.round == 6
