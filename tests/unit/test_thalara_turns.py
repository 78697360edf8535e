"""Thalara: turn order, must-play-or-pass, spells and every effect kind."""

from __future__ import annotations

import pytest

from domain.contract.core import (
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
)
from domain.games.thalara import GAME
from domain.games.thalara import events as ev
from domain.games.thalara.commands import Pass, PlayCard, SpellActivation
from domain.games.thalara.rules.spells import find_conflict, totals
from domain.games.thalara.state import ActiveSpell, Conflict, ThalaraState
from tests.unit.test_thalara_support import act, given, in_play, r


def placed(
    state: ThalaraState, seat: int, card: str, conflict: str = "a01"
) -> ThalaraState:
    """``seat`` has ``card`` in ``conflict`` (turn order untouched)."""
    current = state.current
    state = given(state, ev.CardPlayed(seat=seat, card=card, conflict=conflict))
    return state.model_copy(update={"current": current})


def turn(state: ThalaraState, seat: int) -> ThalaraState:
    return state.model_copy(update={"current": seat})


def conflict(state: ThalaraState, artifact: str) -> Conflict:
    found = find_conflict(state, artifact)
    assert found is not None
    return found


def total(state: ThalaraState, conflict: str = "a01") -> tuple[int, ...]:
    found = find_conflict(state, conflict)
    assert found is not None
    return totals(state, found)


def rule_of(state: ThalaraState, seat: int, command: object) -> str:
    with pytest.raises(IllegalCommandError) as err:
        act(state, seat, command)
    return err.value.rule


def spell(
    name: str, conflict: str = "a01", target: str | None = None
) -> SpellActivation:
    return SpellActivation(spell=name, conflict=conflict, target=target)


# ------------------------------------------------------------------ turns


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = in_play(3)
    assert GAME.to_act(state) == (0,)
    state, events = act(state, 0, PlayCard(card=r(1, 0), conflict="a01"))
    assert events == [ev.CardPlayed(seat=0, card=r(1, 0), conflict="a01")]
    assert state.current == 1
    state, _ = act(state, 1, PlayCard(card=r(1, 1), conflict="a02"))
    assert state.current == 2


def test_passed_players_are_skipped() -> None:
    state = in_play(3)
    state, _ = act(state, 0, PlayCard(card=r(1, 0), conflict="a01"))
    state, events = act(state, 1, Pass())
    assert events == [ev.Passed(seat=1)]
    state, _ = act(state, 2, PlayCard(card=r(1, 2), conflict="a01"))
    assert state.current == 0
    state, _ = act(state, 0, PlayCard(card=r(2, 0), conflict="a01"))
    assert state.current == 2


def test_the_last_player_in_keeps_playing_until_they_pass() -> None:
    state, _ = act(in_play(), 0, Pass())
    state, _ = act(state, 1, PlayCard(card=r(1, 1), conflict="a01"))
    assert state.current == 1
    state, _ = act(state, 1, PlayCard(card=r(2, 1), conflict="a02"))
    assert GAME.to_act(state) == (1,)


def test_playing_out_of_turn_is_refused() -> None:
    with pytest.raises(NotYourTurnError) as err:
        act(in_play(), 1, PlayCard(card=r(1, 1), conflict="a01"))
    assert err.value.rule == "turn-order"
    with pytest.raises(NotYourTurnError):
        act(in_play(), 1, Pass())


def test_each_turn_is_either_one_card_played_or_a_pass() -> None:
    state = in_play()
    commands = list(GAME.legal_commands(state, 0))
    assert commands[0] == Pass()
    assert all(isinstance(c, (Pass, PlayCard)) for c in commands)
    plain = [c for c in commands if isinstance(c, PlayCard) and c.spell is None]
    assert len(plain) == 7 * 3
    assert list(GAME.legal_commands(state, 1)) == []


def test_a_player_without_cards_must_pass() -> None:
    state = in_play(hands={0: [], 1: [r(1, 1)]})
    assert list(GAME.legal_commands(state, 0)) == [Pass()]


def test_a_played_card_must_come_from_your_hand_into_a_conflict_in_play() -> None:
    state = in_play()
    assert (
        rule_of(state, 0, PlayCard(card=r(9, 0), conflict="a01"))
        == "thalara.card-not-in-hand"
    )
    assert (
        rule_of(state, 0, PlayCard(card=r(1, 1), conflict="a01"))
        == "thalara.card-not-in-hand"
    )
    assert (
        rule_of(state, 0, PlayCard(card=r(1, 0), conflict="a09"))
        == "thalara.no-such-conflict"
    )


@pytest.mark.parametrize(
    "command",
    [
        PlayCard(card="r42@0", conflict="a01"),
        PlayCard(card="r01@0", conflict="r02@0"),
        PlayCard(card="r01@0", conflict="zz"),
        PlayCard(
            card="r01@0",
            conflict="a01",
            spell=SpellActivation(spell="gandalf.fireball", conflict="a01"),
        ),
        PlayCard(
            card="r01@0",
            conflict="a01",
            spell=SpellActivation(spell="myrja.scorch", conflict="a01", target="x"),
        ),
    ],
)
def test_unknown_ids_are_malformed(command: PlayCard) -> None:
    with pytest.raises(InvalidCommandError):
        act(in_play(), 0, command)


def test_passing_returns_remnants_to_the_supply_but_keeps_artifacts() -> None:
    state = in_play(hands={0: [r(1, 0), r(2, 0), "a10"]})
    held = state.players[0].model_copy(update={"won": ("a10",)})
    state = state.model_copy(update={"players": (held, state.players[1])})
    state, _ = act(state, 0, Pass())
    assert state.players[0].hand == ("a10",)
    assert r(1, 0) in state.players[0].supply and len(state.players[0].supply) == 20


# ------------------------------------------------------------------ spells


def test_a_spell_needs_the_colours_among_your_own_cards_counting_the_one_just_played() -> (
    None
):
    state = in_play()
    assert (
        rule_of(
            state, 0, PlayCard(card=r(1, 0), conflict="a01", spell=spell("myrja.flare"))
        )
        == "thalara.spell-requirement"
    )
    state = placed(state, 0, r(2, 0))
    state, events = act(
        state, 0, PlayCard(card=r(1, 0), conflict="a01", spell=spell("myrja.flare"))
    )
    assert events[1] == ev.SpellActivated(seat=0, spell="myrja.flare", conflict="a01")
    assert total(state) == (1 + 2 + 3, 0)


def test_opponents_cards_do_not_count_toward_your_requirement() -> None:
    state = placed(placed(in_play(), 1, r(1, 1)), 1, r(2, 1))
    state = placed(state, 0, r(3, 0))
    command = PlayCard(card=r(6, 0), conflict="a02", spell=spell("myrja.flare"))
    assert rule_of(state, 0, command) == "thalara.spell-requirement"


def test_a_spell_may_go_to_another_conflict_than_the_card() -> None:
    state = placed(placed(in_play(), 0, r(1, 0)), 0, r(2, 0))
    state, events = act(
        state, 0, PlayCard(card=r(6, 0), conflict="a02", spell=spell("myrja.flare"))
    )
    assert [type(e) for e in events] == [ev.CardPlayed, ev.SpellActivated]
    assert conflict(state, "a01").spells == (
        ActiveSpell(spell="myrja.flare", caster=0),
    )


def test_each_spell_can_be_activated_once_per_round_and_stays_in_its_conflict() -> None:
    state = placed(placed(in_play(), 0, r(1, 0)), 0, r(2, 0))
    state, _ = act(
        state, 0, PlayCard(card=r(3, 0), conflict="a01", spell=spell("myrja.flare"))
    )
    state, _ = act(state, 1, PlayCard(card=r(1, 1), conflict="a02"))
    assert (
        rule_of(
            state, 0, PlayCard(card=r(4, 0), conflict="a01", spell=spell("myrja.flare"))
        )
        == "thalara.spell-once-per-round"
    )
    assert all(
        c.spell is None or c.spell.spell != "myrja.flare"
        for c in GAME.legal_commands(state, 0)
        if isinstance(c, PlayCard)
    )
    state, _ = act(state, 0, PlayCard(card=r(5, 0), conflict="a03"))
    assert conflict(state, "a01").spells[0].spell == "myrja.flare"
    state, _ = act(state, 1, Pass())
    state, events = act(state, 0, Pass())
    assert any(isinstance(e, ev.RoundEnded) for e in events)
    assert state.players[0].spells_used == () and all(
        c.spells == () for c in state.conflicts
    )


def test_only_your_own_characters_spells_can_be_activated() -> None:
    state = placed(placed(in_play(), 0, r(6, 0)), 0, r(7, 0))
    command = PlayCard(card=r(1, 0), conflict="a01", spell=spell("canto.tide"))
    assert rule_of(state, 0, command) == "thalara.not-your-spell"


def test_a_bonus_adds_strength_to_the_caster_until_the_end_of_the_round() -> None:
    state = placed(in_play(hands={0: [r(17, 0)]}), 1, r(5, 1))
    state, _ = act(
        state, 0, PlayCard(card=r(17, 0), conflict="a01", spell=spell("myrja.kindle"))
    )
    assert total(state) == (2 + 1, 5)


def test_a_weakening_lowers_every_opponent_but_never_below_zero() -> None:
    state = in_play(3, hands={0: [r(16, 0)]})
    state = placed(placed(placed(state, 0, r(1, 0)), 0, r(2, 0)), 1, r(5, 1))
    state = placed(state, 2, r(1, 2))
    state, _ = act(
        state, 0, PlayCard(card=r(16, 0), conflict="a01", spell=spell("myrja.ashfall"))
    )
    assert total(state) == (1 + 2 + 1, 3, 0)


def test_a_destroyed_card_adds_neither_strength_nor_colour() -> None:
    state = in_play(characters=("myrja", "canto"), hands={0: [r(1, 0)]})
    state = placed(placed(placed(state, 1, r(8, 1)), 1, r(9, 1)), 0, r(16, 0))
    state, events = act(
        state,
        0,
        PlayCard(
            card=r(1, 0), conflict="a01", spell=spell("myrja.scorch", target=r(8, 1))
        ),
    )
    assert events[2] == ev.CardDestroyed(card=r(8, 1), owner=1, conflict="a01")
    assert total(state) == (1 + 1, 4)
    assert conflict(state, "a01").plays[0].destroyed
    state = placed(state, 1, r(10, 1))
    state = turn(state, 1)
    assert (
        rule_of(
            state,
            1,
            PlayCard(card=r(6, 1), conflict="a02", spell=spell("canto.maelstrom")),
        )
        == "thalara.spell-requirement"
    )


def test_a_destroy_spell_needs_a_valid_target() -> None:
    state = in_play(hands={0: [r(1, 0)]})
    state = placed(placed(placed(state, 1, r(5, 1)), 1, r(3, 1)), 0, r(16, 0))
    too_strong = PlayCard(
        card=r(1, 0), conflict="a01", spell=spell("myrja.scorch", target=r(5, 1))
    )
    own = PlayCard(
        card=r(1, 0), conflict="a01", spell=spell("myrja.scorch", target=r(16, 0))
    )
    none = PlayCard(card=r(1, 0), conflict="a01", spell=spell("myrja.scorch"))
    elsewhere = PlayCard(
        card=r(1, 0), conflict="a01", spell=spell("myrja.kindle", target=r(3, 1))
    )
    for command in (too_strong, own, none, elsewhere):
        assert rule_of(state, 0, command) == "thalara.spell-target"
    targets = {
        c.spell.target
        for c in GAME.legal_commands(state, 0)
        if isinstance(c, PlayCard) and c.spell and c.spell.spell == "myrja.scorch"
    }
    assert targets == {r(3, 1)}


def test_any_target_spells_may_destroy_your_own_cards() -> None:
    state = in_play(characters=("canto", "myrja"), hands={0: [r(8, 0)]})
    state = placed(placed(state, 0, r(6, 0)), 0, r(7, 0))
    state, events = act(
        state,
        0,
        PlayCard(
            card=r(8, 0), conflict="a01", spell=spell("canto.maelstrom", target=r(6, 0))
        ),
    )
    assert events[-1] == ev.CardDestroyed(card=r(6, 0), owner=0, conflict="a01")


def test_a_returned_card_goes_back_to_its_owners_hand() -> None:
    state = in_play(characters=("canto", "myrja"), hands={0: [r(11, 0)]})
    state = placed(placed(state, 0, r(6, 0)), 1, r(5, 1))
    state, events = act(
        state,
        0,
        PlayCard(
            card=r(11, 0), conflict="a01", spell=spell("canto.undertow", target=r(5, 1))
        ),
    )
    assert events[-1] == ev.CardReturned(
        card=r(5, 1), owner=1, conflict="a01", to_supply=False
    )
    assert r(5, 1) in state.players[1].hand and total(state) == (1 + 1, 0)


def test_a_remnant_returned_to_a_player_who_passed_goes_to_their_supply() -> None:
    state = in_play(characters=("canto", "myrja"), hands={0: [r(11, 0), r(12, 0)]})
    state = placed(placed(state, 0, r(6, 0)), 1, r(5, 1))
    state, _ = act(state, 0, PlayCard(card=r(12, 0), conflict="a02"))
    state, _ = act(state, 1, Pass())
    state, events = act(
        state,
        0,
        PlayCard(
            card=r(11, 0), conflict="a01", spell=spell("canto.undertow", target=r(5, 1))
        ),
    )
    returned = events[-1]
    assert isinstance(returned, ev.CardReturned) and returned.to_supply
    assert r(5, 1) in state.players[1].supply and r(5, 1) not in state.players[1].hand


def test_a_return_own_spell_takes_back_your_own_card() -> None:
    state = in_play(characters=("accaina", "myrja"), hands={0: [r(11, 0)]})
    state = placed(placed(state, 0, r(1, 0)), 1, r(2, 1))
    assert (
        rule_of(
            state,
            0,
            PlayCard(
                card=r(11, 0),
                conflict="a01",
                spell=spell("accaina.regrowth", target=r(2, 1)),
            ),
        )
        == "thalara.spell-target"
    )
    state, _ = act(
        state,
        0,
        PlayCard(
            card=r(11, 0),
            conflict="a01",
            spell=spell("accaina.regrowth", target=r(1, 0)),
        ),
    )
    assert state.players[0].hand == (r(1, 0),)


def test_every_generated_play_is_accepted() -> None:
    state = in_play(
        characters=("kandhran", "canto"),
        hands={0: [r(16, 0), r(17, 0), r(1, 0), r(6, 0)]},
    )
    state = placed(placed(placed(state, 0, r(18, 0)), 1, r(3, 1)), 1, r(10, 1), "a02")
    commands = list(GAME.legal_commands(state, 0))
    kinds = {c.spell.spell for c in commands if isinstance(c, PlayCard) and c.spell}
    assert kinds == {"kandhran.bulwark", "kandhran.shatter", "kandhran.banish"}
    for command in commands:
        act(state, 0, command)
