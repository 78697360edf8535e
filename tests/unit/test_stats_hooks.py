"""The rulesets' statistics hooks on small hand-made events and states."""

from __future__ import annotations

from domain.contract.core import ChanceOutcome, EventFacet, SeatFacet
from domain.games import find_game
from domain.games.terralore import events as tev
from domain.games.terralore.commands import Lane
from domain.games.terralore.setup import DeckChoice, TerraloreSetup
from domain.games.thalara import events as hev
from domain.games.thalara.setup import ThalaraSetup
from domain.games.vaalbara import events as vev
from domain.games.vaalbara.content import LANDS
from domain.games.vaalbara.setup import VaalbaraSetup

THALARA, TERRALORE, VAALBARA = (
    find_game(g) for g in ("thalara", "terralore", "vaalbara")
)


def test_every_hook_is_wired_into_its_ruleset():
    for game in (THALARA, TERRALORE, VAALBARA):
        assert game.facts and game.event_facets and game.chance_outcomes


def test_thalara_facts_are_rounds_characters_and_mode():
    setup = ThalaraSetup(players=2, mode="casual_chaos", characters=("canto", "myrja"))
    state = THALARA.initial_state(setup).model_copy(update={"round": 6, "starter": 1})
    facts = THALARA.facts(setup, state)
    assert facts.rounds == 6 and facts.first_player is None
    assert set(facts.seat_facets) == {
        SeatFacet(seat=0, key="character", value="canto"),
        SeatFacet(seat=1, key="character", value="myrja"),
        SeatFacet(seat=0, key="mode", value="casual_chaos"),
        SeatFacet(seat=1, key="mode", value="casual_chaos"),
    }


def test_thalara_event_facets_count_cards_by_content_id_spells_and_first_player():
    remnant = THALARA.event_facets(hev.CardPlayed(seat=1, card="r07@1", conflict="a01"))
    assert remnant == (
        EventFacet(key="card_played", value="r07", seat=1),
        EventFacet(key="card_kind", value="remnant", seat=1),
    )
    artifact = THALARA.event_facets(
        hev.CardPlayed(seat=0, card="a05#2", conflict="a01")
    )
    assert [f.value for f in artifact] == ["a05", "artifact"]
    assert THALARA.event_facets(
        hev.SpellActivated(seat=0, spell="s3", conflict="a01")
    ) == (EventFacet(key="spell_activated", value="s3", seat=0),)
    assert THALARA.event_facets(hev.FirstPlayerChosen(seat=1)) == (
        EventFacet(key="first_player", value="1", seat=1),
    )
    assert THALARA.event_facets(hev.Passed(seat=0)) == ()


def test_thalara_shuffles_report_each_cards_rank_and_position():
    outcomes = THALARA.chance_outcomes(
        hev.ArtifactsShuffled(order=("a02", "a00", "a01"), size=3)
    )
    dist = "artifact_shuffle:n=3"
    assert outcomes == tuple(
        ChanceOutcome(distribution=dist, value=v, outcomes=9)
        for v in (2 * 3 + 0, 0 + 1, 3 + 2)
    )
    supply = THALARA.chance_outcomes(
        hev.SupplyShuffled(seat=0, order=("r1@0", "r0@0"), size=2)
    )
    assert [(o.distribution, o.value) for o in supply] == [
        ("supply_shuffle:n=2", 2),
        ("supply_shuffle:n=2", 1),
    ]
    assert (
        THALARA.chance_outcomes(hev.ArtifactsShuffled(order=(), size=15)) == ()
    )  # a redacted order
    assert THALARA.chance_outcomes(hev.FirstPlayerChosen(seat=0)) == ()


def test_terralore_facts_turns_and_deck_names():
    setup = TerraloreSetup(players=2)
    state = TERRALORE.initial_state(setup).model_copy(update={"turn": 9})
    facts = TERRALORE.facts(setup, state)
    assert facts.rounds == 9 and facts.first_player is None
    assert [(f.seat, f.key, f.value) for f in facts.seat_facets] == [
        (0, "deck", "emberfall"),
        (1, "deck", "tidewatch"),
    ]
    named = TerraloreSetup(
        players=2, decks=(DeckChoice(name="tidewatch"), DeckChoice(name="emberfall"))
    )
    assert [f.value for f in TERRALORE.facts(named, state).seat_facets] == [
        "tidewatch",
        "emberfall",
    ]


def test_terralore_card_plays_and_dice():
    assert TERRALORE.event_facets(
        tev.CreaturePlayed(seat=1, lane=Lane.ATTACKING, card="c12")
    ) == (EventFacet(key="card_played", value="c12", seat=1),)
    assert (
        TERRALORE.event_facets(
            tev.SkillPlayed(seat=0, lane=Lane.DEFENDING, card="s02")
        )[0].value
        == "s02"
    )
    rolls = TERRALORE.chance_outcomes(
        tev.RevealOrderDecided(first=1, reason="roll", order=(), rolls=(3, 3, 6, 1))
    )
    assert rolls == tuple(
        ChanceOutcome(distribution="d6", value=v, outcomes=6) for v in (2, 2, 5, 0)
    )
    deck = TERRALORE.chance_outcomes(tev.DeckShuffled(seat=0, order=("b", "a")))
    assert [(o.distribution, o.value, o.outcomes) for o in deck] == [
        ("deck_shuffle:n=2", 2, 4),
        ("deck_shuffle:n=2", 1, 4),
    ]
    assert (
        TERRALORE.chance_outcomes(tev.DeckShuffled(seat=0, order=(), hidden=True)) == ()
    )


def test_vaalbara_facts_clans_and_land_types():
    setup = VaalbaraSetup(players=3)
    state = VAALBARA.initial_state(setup)
    by_type = {}
    for land in LANDS.values():
        by_type.setdefault(land.type, []).append(land.id)
    realm = (by_type["meadow"][0], by_type["meadow"][1], by_type["river"][0])
    players = (state.players[0].model_copy(update={"realm": realm}), *state.players[1:])
    facts = VAALBARA.facts(
        setup, state.model_copy(update={"players": players, "round": 9})
    )
    assert facts.rounds == 9 and facts.first_player is None
    got = {(f.seat, f.key): f.value for f in facts.seat_facets}
    assert got[(0, "land_types")] == "2" and got[(1, "land_types")] == "0"
    assert [got[(s, "clan")] for s in range(3)] == [p.clan for p in state.players]


def test_vaalbara_characters_played_lands_taken_and_deck_shuffles():
    revealed = vev.CharactersRevealed(
        characters=("bard", "pioneer"), nonces=("00", "11")
    )
    assert VAALBARA.event_facets(revealed) == (
        EventFacet(key="character_played", value="bard", seat=0),
        EventFacet(key="character_played", value="pioneer", seat=1),
    )
    land = next(iter(LANDS.values()))
    assert VAALBARA.event_facets(vev.LandTaken(seat=2, card=land.id)) == (
        EventFacet(key="land_taken", value=land.type, seat=2),
    )
    clan = VAALBARA.chance_outcomes(
        vev.ClanDeckShuffled(seat=1, cards=("rider", "bard", "fighter"))
    )
    # sorted: bard 0, fighter 1, rider 2
    assert [o.value for o in clan] == [2 * 3 + 0, 0 * 3 + 1, 1 * 3 + 2]
    assert {o.distribution for o in clan} == {"clan_deck_shuffle:n=3"}
    assert VAALBARA.chance_outcomes(vev.LandDeckShuffled(cards=())) == ()
