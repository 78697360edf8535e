"""Thalara: setup, the opening, secret hand selection and what viewers see."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from pydantic import ValidationError

from domain.contract.chance import commit
from domain.contract.core import (
    ADMIN,
    SPECTATOR,
    IllegalCommandError,
    InvalidCommandError,
    Viewer,
)
from domain.games.thalara import GAME
from domain.games.thalara import events as ev
from domain.games.thalara.commands import Pass, PlayCard, SelectHand
from domain.games.thalara.content import catalogue, load_pack
from domain.games.thalara.evolve import evolve
from domain.games.thalara.rules.decide import selection_payload
from domain.games.thalara.setup import ThalaraSetup
from domain.games.thalara.state import PLAY, SELECT
from tests.unit.test_thalara_support import RNG, act, given, new_table, r, selected

SEVEN = tuple(r(n, 0) for n in range(1, 8))
from domain.games.thalara.state import ThalaraState
from domain.games.thalara.view import ThalaraView
from tests.support.typed import of, redacted


def view(state: ThalaraState, viewer: Viewer) -> ThalaraView:
    return of(ThalaraView, GAME.view(state, viewer))


def test_the_sample_pack_is_labelled_and_complete() -> None:
    pack = load_pack("sample")
    assert pack.label.startswith("SAMPLE CONTENT")
    assert len(pack.remnants) == 20 and len(pack.artifacts) == 15
    assert [c.name for c in pack.characters] == [
        "Myrja",
        "Canto",
        "Accaina",
        "Kandhran",
    ]
    assert {s.effect.kind for c in pack.characters for s in c.spells} == {
        "bonus",
        "weaken",
        "destroy",
        "return",
    }


def test_each_seat_has_its_own_copy_of_the_same_twenty_remnants() -> None:
    state = GAME.initial_state(ThalaraSetup(players=2, characters=("myrja", "canto")))
    a, b = (p.supply for p in state.players)
    assert len(a) == len(b) == 20 and not set(a) & set(b)
    assert [x.split("@")[0] for x in a] == [x.split("@")[0] for x in b]


def test_three_and_four_players_combine_two_artifact_sets_with_distinct_ids() -> None:
    cards = catalogue("sample", 3)
    artifacts = [c for c in cards.values() if c.kind == "artifact"]
    assert len(artifacts) == 30 and len({a.id for a in artifacts}) == 30
    assert sum(1 for c in cards.values() if c.kind == "remnant") == 60


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 5, "characters": ("myrja",) * 5},
        {"players": 1, "characters": ("myrja",)},
        {"players": 2, "characters": ("myrja",)},
        {"players": 2, "characters": ("myrja", "gandalf")},
        {"players": 2, "characters": ("myrja", "myrja")},
        {"players": 2, "characters": ("myrja", "canto"), "content": "nope"},
    ],
)
def test_a_malformed_setup_is_rejected(setup: dict[str, Any]) -> None:
    with pytest.raises(InvalidCommandError):
        GAME.initial_state(ThalaraSetup(**setup))


def test_a_mode_outside_the_rulebook_is_refused_by_the_setup_model() -> None:
    with pytest.raises(ValidationError) as caught:
        ThalaraSetup.model_validate(
            {"players": 2, "mode": "hard", "characters": ("myrja", "canto")}
        )
    assert caught.value.errors()[0]["loc"] == ("mode",)


def test_with_two_sets_a_character_may_be_chosen_twice_and_names_are_accepted() -> None:
    state = GAME.initial_state(
        ThalaraSetup(players=3, characters=("Myrja", "myrja", "Canto"))
    )
    assert [p.character for p in state.players] == ["myrja", "myrja", "canto"]


@pytest.mark.parametrize(
    ("players", "conflicts", "stack"), [(2, 3, 15), (3, 4, 30), (4, 5, 30)]
)
def test_the_opening_shuffles_picks_a_first_player_and_reveals_conflicts(
    players: int, conflicts: int, stack: int
) -> None:
    state = GAME.initial_state(
        ThalaraSetup(
            players=players,
            characters=("myrja", "canto", "accaina", "kandhran")[:players],
        )
    )
    events = GAME.start(state, RNG)
    assert [type(e) for e in events] == [
        ev.ArtifactsShuffled,
        ev.FirstPlayerChosen,
        ev.ArtifactsRefilled,
        ev.RoundStarted,
    ]
    assert of(ev.ArtifactsShuffled, events[0]).size == stack
    after = GAME.replay(state, events)
    assert len(after.conflicts) == conflicts and len(after.stack) == stack - conflicts
    assert after.phase == SELECT and GAME.to_act(after) == tuple(range(players))


def test_the_stack_order_is_visible_to_admins_only() -> None:
    state = GAME.initial_state(ThalaraSetup())
    shuffled = of(ev.ArtifactsShuffled, GAME.start(state, RNG)[0])
    assert redacted(GAME, shuffled, ADMIN).order
    for viewer in (SPECTATOR, Viewer.player(0), Viewer.player(1)):
        assert redacted(GAME, shuffled, viewer).order == ()
    after = GAME.replay(state, GAME.start(state, RNG))
    assert (
        view(after, Viewer.player(0)).stack == ()
        and view(after, Viewer.player(0)).stack_size == 12
    )
    assert view(after, ADMIN).stack == after.stack


def test_a_hand_selection_is_committed_and_hidden_from_others() -> None:
    state = new_table()
    _, (event,) = act(state, 0, SelectHand(cards=SEVEN[::-1]))
    assert isinstance(event, ev.HandSelected)
    assert event.cards == SEVEN and event.count == 7
    assert event.commitment == commit(bytes(16), selection_payload(0, 1, SEVEN))
    assert redacted(GAME, event, Viewer.player(0)).cards == SEVEN
    for viewer in (Viewer.player(1), SPECTATOR):
        shown = redacted(GAME, event, viewer)
        assert (
            shown.cards == ()
            and shown.count == 7
            and shown.commitment == event.commitment
        )


def test_play_begins_only_once_every_player_has_selected() -> None:
    state, _ = act(new_table(), 0, SelectHand(cards=SEVEN))
    assert state.phase == SELECT and GAME.to_act(state) == (1,)
    assert view(state, Viewer.player(1)).players[0].hand == ()
    assert view(state, Viewer.player(1)).players[0].hand_size == 7
    assert view(state, Viewer.player(0)).players[0].hand == SEVEN
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, SelectHand(cards=SEVEN))
    assert err.value.rule == "thalara.already-selected"
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, PlayCard(card=SEVEN[0], conflict="a01"))
    assert err.value.rule == "thalara.wrong-phase"
    state, _ = act(state, 1, SelectHand(cards=tuple(r(n, 1) for n in range(14, 21))))
    assert state.phase == PLAY and GAME.to_act(state) == (0,)


def test_a_selection_must_be_seven_cards_from_your_own_supply() -> None:
    state = new_table()
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, SelectHand(cards=SEVEN[:6]))
    assert err.value.rule == "thalara.hand-size"
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, SelectHand(cards=tuple(r(n, 1) for n in range(1, 8))))
    assert err.value.rule == "thalara.not-in-supply"
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, SelectHand(cards=("a01",) + SEVEN[:6]))
    assert err.value.rule == "thalara.not-in-supply"


@pytest.mark.parametrize(
    "cards", [("r99@0",) + SEVEN[:6], ("r01@5",) + SEVEN[:6], (SEVEN[0],) * 7]
)
def test_unknown_or_repeated_cards_are_malformed(cards: tuple[str, ...]) -> None:
    with pytest.raises(InvalidCommandError):
        act(new_table(), 0, SelectHand(cards=cards))


def test_a_seat_that_does_not_exist_is_malformed() -> None:
    with pytest.raises(InvalidCommandError):
        GAME.decide(new_table(), Pass(), 7, RNG)


def test_selection_commands_are_generated_lazily() -> None:
    state = new_table()
    commands = GAME.legal_commands(state, 0)
    first = list(itertools.islice(commands, 3))
    assert all(isinstance(c, SelectHand) and len(c.cards) == 7 for c in first)
    assert list(GAME.legal_commands(given(state, selected(state, 0, SEVEN)), 0)) == []


def test_a_refill_selection_counts_the_artifacts_in_hand() -> None:
    state = new_table()
    held = state.players[0].model_copy(
        update={"hand": ("a10", "a11"), "won": ("a10", "a11")}
    )
    state = state.model_copy(update={"players": (held, state.players[1])})
    with pytest.raises(IllegalCommandError) as err:
        act(state, 0, SelectHand(cards=SEVEN))
    assert err.value.rule == "thalara.hand-size"
    after, _ = act(state, 0, SelectHand(cards=SEVEN[:5]))
    assert len(after.players[0].hand) == 7
    assert all(
        len(of(SelectHand, c).cards) == 5
        for c in itertools.islice(GAME.legal_commands(state, 0), 5)
    )


def test_golden_count_of_opening_hand_selections_is_20_choose_7() -> None:
    assert sum(1 for _ in GAME.legal_commands(new_table(), 0)) == 77520


def test_the_public_helpers_doctests_hold() -> None:
    import doctest

    from domain.games.thalara import content
    from domain.games.thalara.rules import spells

    for module in (content, spells):
        assert doctest.testmod(module).failed == 0


def test_evolve_has_one_handler_for_each_declared_event_and_no_other() -> None:
    assert set(evolve.handlers) == set(GAME.event_types)


def test_evolve_refuses_what_is_not_a_thalara_event() -> None:
    with pytest.raises(TypeError, match="thalara cannot apply Pass"):
        GAME.evolve(new_table(), Pass())  # type: ignore[arg-type]
