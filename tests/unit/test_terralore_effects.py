"""One test per card-effect kind, plus the content pack and deck building."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from domain.contract.core import InvalidCommandError
from domain.games.terralore import GAME, content
from domain.games.terralore.content import EffectKind
from domain.games.terralore.events import (
    CardsDiscarded,
    CardsDrawn,
    CastleDamaged,
    CastleHealed,
    CreatureDestroyed,
    CreatureExiled,
    LaneBoosted,
    LanesCounted,
    SkillPlayed,
)
from domain.games.terralore.setup import DeckChoice, TerraloreSetup
from tests.unit.test_terralore_rules import A, D, of, place, play_turn, position

# ------------------------------------------------------------------ effects


def test_destroy_sends_the_strongest_facing_enemy_creature_to_the_graveyard() -> None:
    state = position(
        {"hand": ("quake", "ember-imp")},
        {
            "defending": ("reef-crab", "coral-knight", "storm-hawk"),
            "attacking": ("leviathan",),
        },
    )
    events, after = play_turn(
        state, place(("quake", A), discards=("ember-imp",)), place()
    )
    assert of(events, SkillPlayed)[0].card == "quake"
    # coral-knight and storm-hawk both have 3 points: the older one goes
    assert of(events, CreatureDestroyed) == [
        CreatureDestroyed(seat=1, lane=D, card="coral-knight", reason="effect")
    ]
    p1 = after.players[1]
    assert (
        p1.defending == ("reef-crab", "storm-hawk") and "coral-knight" in p1.graveyard
    )
    assert "quake" in after.players[0].graveyard


def test_exile_removes_the_creature_from_the_game() -> None:
    state = position(
        {"attacking": ("pyre-drake", "ember-imp")},
        {"hand": ("banish", "reef-crab", "gust-wisp")},
    )
    events, after = play_turn(
        state, place(), place(("banish", D), discards=("reef-crab", "gust-wisp"))
    )
    assert of(events, CreatureExiled) == [
        CreatureExiled(seat=0, lane=A, card="pyre-drake")
    ]
    p0 = after.players[0]
    assert (
        p0.exile == ("pyre-drake",)
        and p0.attacking == ("ember-imp",)
        and p0.graveyard == ()
    )


def test_destroy_with_no_facing_creature_does_nothing() -> None:
    state = position({"hand": ("quake", "ember-imp")}, {"attacking": ("leviathan",)})
    events, after = play_turn(
        state, place(("quake", A), discards=("ember-imp",)), place()
    )
    assert of(events, CreatureDestroyed) == [] and after.players[1].attacking == (
        "leviathan",
    )


def test_bonus_adds_points_here_for_this_counting_only() -> None:
    state = position(
        {"hand": ("rally",), "attacking": ("ember-imp",)}, {"defending": ("reef-crab",)}
    )
    events, after = play_turn(state, place(("rally", A)), place())
    assert of(events, LaneBoosted) == [LaneBoosted(seat=0, lane=A, amount=2)]
    assert of(events, LanesCounted)[0].attack == (3, 0)
    assert after.players[1].hp == 8
    assert after.players[0].boost_attacking == 0  # gone by the next turn


def test_damage_hits_the_opponents_castle() -> None:
    state = position({"hand": ("fireball", "ember-imp")})
    events, _after = play_turn(
        state, place(("fireball", D), discards=("ember-imp",)), place()
    )
    assert of(events, CastleDamaged) == [
        CastleDamaged(seat=1, amount=2, hp=8, source="effect")
    ]


def test_heal_restores_the_owners_castle_and_may_go_above_ten() -> None:
    state = position({}, {"hand": ("healing-spring", "reef-crab"), "hp": 9})
    events, after = play_turn(
        state, place(), place(("healing-spring", A), discards=("reef-crab",))
    )
    assert of(events, CastleHealed) == [CastleHealed(seat=1, amount=3, hp=12)]
    assert after.players[1].hp == 12 and after.players[1].healed


def test_draw_effect_draws_for_the_owner_and_stops_at_an_empty_deck_without_losing() -> (
    None
):
    state = position(
        {}, {"hand": ("scrying-pool",), "deck": ("leviathan", "gust-wisp", "reef-crab")}
    )
    events, after = play_turn(state, place(), place(("scrying-pool", D)))
    drawn = of(events, CardsDrawn)
    assert drawn[0] == CardsDrawn(seat=1, count=2, cards=("leviathan", "gust-wisp"))
    # one card left: the next Draw phase cannot give two, so seat 1 ran out
    assert after.reason == "deck-out" and after.ranks == (1, 2)
    state = position({}, {"hand": ("scrying-pool",), "deck": ("leviathan",)})
    events, _ = play_turn(state, place(), place(("scrying-pool", D)))
    assert of(events, CardsDrawn)[0].cards == ("leviathan",)


def test_discard_makes_the_opponent_discard_random_cards_from_hand() -> None:
    state = position(
        {"hand": ("ember-imp", "rally", "quake", "moss-sprite")},
        {"hand": ("mind-rot", "reef-crab")},
    )
    events, after = play_turn(
        state, place(("ember-imp", A)), place(("mind-rot", D), discards=("reef-crab",))
    )
    # the played imp has already left the hand; the scripted shuffle is identity
    assert of(events, CardsDiscarded) == [
        CardsDiscarded(seat=0, cards=("rally", "quake"))
    ]
    assert after.players[0].hand[:1] == ("moss-sprite",)


def test_every_effect_kind_of_the_vocabulary_is_used_by_a_sample_card() -> None:
    used = {e.kind for c in content.load_pack().cards for e in c.effects}
    assert used == set(EffectKind)


# ------------------------------------------------------------------ content and decks


def test_the_content_pack_is_labelled_sample_and_has_two_different_decks() -> None:
    pack = content.load_pack()
    assert "SAMPLE" in pack.label
    decks = [content.named_deck(n) for n in ("emberfall", "tidewatch")]
    assert decks[0] != decks[1] and all(len(set(d)) == 20 for d in decks)
    kinds = {content.card(c).kind for d in decks for c in d}
    assert kinds == {"creature", "skill"}
    assert {c.rarity for c in pack.cards} == {
        "common",
        "uncommon",
        "rare",
        "epic",
        "legendary",
    }
    assert all(c.points == 0 and c.effects for c in pack.cards if c.kind == "skill")


def test_setup_defaults_to_the_two_named_sample_decks() -> None:
    state = GAME.initial_state(TerraloreSetup())
    assert state.decks == (
        content.named_deck("emberfall"),
        content.named_deck("tidewatch"),
    )
    named = TerraloreSetup(
        decks=(DeckChoice(name="tidewatch"), DeckChoice(name="emberfall"))
    )
    assert GAME.initial_state(named).decks[0] == content.named_deck("tidewatch")


def test_a_custom_deck_of_twenty_single_existing_cards_is_accepted() -> None:
    mixed = content.named_deck("emberfall")[:10] + content.named_deck("tidewatch")[:10]
    setup = TerraloreSetup(decks=(DeckChoice(cards=mixed), DeckChoice()))
    assert GAME.initial_state(setup).decks[0] == mixed


@pytest.mark.parametrize(
    "cards",
    [
        content.named_deck("emberfall")[:19],
        content.named_deck("emberfall")[:19] + ("ember-imp",),
        content.named_deck("emberfall")[:19] + ("dragon-of-nowhere",),
    ],
    ids=["19 cards", "two copies", "unknown card"],
)
def test_deck_building_rejects_bad_decks(cards: tuple[str, ...]) -> None:
    with pytest.raises(ValidationError):
        TerraloreSetup(decks=(DeckChoice(cards=cards), DeckChoice()))
    with pytest.raises(InvalidCommandError):
        content.parse_deck(cards)


def test_terralore_is_exactly_two_players() -> None:
    with pytest.raises(ValidationError):
        TerraloreSetup(players=3)
    assert (GAME.min_players, GAME.max_players) == (2, 2)
