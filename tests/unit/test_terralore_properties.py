"""Terralore over random complete games: conservation, HP, outcome, replay, no leaks."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from domain.contract.core import SPECTATOR, Viewer, ranks_from_scores
from domain.games.terralore import GAME
from domain.games.terralore.events import CastleHealed, DeckRanOut, GameEnded
from domain.games.terralore.rules.reveal import field_points
from domain.games.terralore.setup import TerraloreSetup
from domain.games.terralore.state import Plan, TerraloreState
from domain.games.terralore.view import TerraloreView
from domain.ledger.simulate import Playthrough, play_random_game
from tests.support.contract import (
    assert_accepted,
    assert_admin_view_is_complete,
    assert_proto_contract,
    assert_replay_equals_live,
    assert_round_trips,
)
from tests.support.sizes import examples

SETUP = TerraloreSetup()
seeds = st.binary(min_size=32, max_size=32)


def zones(state: TerraloreState, seat: int) -> list[str]:
    p = state.players[seat]
    return [
        *p.deck,
        *p.hand,
        *p.staged,
        *p.defending,
        *p.attacking,
        *p.graveyard,
        *p.exile,
    ]


def check_conservation_and_hp(play: Playthrough) -> None:
    healed = [False, False]
    # states[k] follows events[k-1]; from states[2] on both decks are shuffled in
    for k, state in enumerate(play.states[2:], start=2):
        event = play.events[k - 1]
        if isinstance(event, CastleHealed):
            healed[event.seat] = True
        for seat in (0, 1):
            cards = zones(state, seat)
            assert len(cards) == 20 and sorted(cards) == sorted(state.decks[seat])
            p = state.players[seat]
            assert 0 <= p.hp and (p.hp <= 10 or healed[seat])
            assert len(p.defending) <= 4 and len(p.attacking) <= 4
        assert not GAME.is_over(state) or k == len(play.states) - 1


def check_outcome(play: Playthrough) -> None:
    state = play.state
    outcome = GAME.outcome(state)
    assert outcome is not None and isinstance(play.events[-1], GameEnded)
    hp = [p.hp for p in state.players]
    tie_break = ranks_from_scores([(p.hp, field_points(p)) for p in state.players])
    ran_out = [e.seat for e in play.events if isinstance(e, DeckRanOut)]
    if 0 in hp:
        assert not ran_out and outcome.ranks == tie_break
        assert outcome.reason == (
            "castle-destroyed" if hp.count(0) == 1 else "both-castles-destroyed"
        )
    elif len(ran_out) == 1:
        assert outcome.reason == "deck-out" and outcome.ranks[ran_out[0]] == 2
        assert (
            len(state.players[ran_out[0]].deck)
            < 2
            <= len(state.players[1 - ran_out[0]].deck)
        )
    else:
        assert ran_out == [0, 1] and outcome.reason == "both-decks-out"
        assert outcome.ranks == tie_break
    assert outcome.winners == tuple(s for s in (0, 1) if outcome.ranks[s] == 1)
    assert outcome.scores == tuple(hp)


def perturb_hidden(state: TerraloreState, seat: int) -> TerraloreState:
    """Another state ``seat``'s opponent cannot tell apart: hand and deck cards
    swapped, deck reordered, the committed plan replaced."""
    p = state.players[seat]
    pool = list(p.hand + p.deck)
    pool.reverse()
    plan = Plan() if p.plan is not None else None
    fake = p.model_copy(
        update={
            "hand": tuple(pool[: len(p.hand)]),
            "deck": tuple(pool[len(p.hand) :]),
            "plan": plan,
            "nonce": "",
        }
    )
    players = tuple(fake if s == seat else q for s, q in enumerate(state.players))
    return state.model_copy(update={"players": players})


def check_no_leaks(play: Playthrough, rnd: random.Random) -> None:
    checked = rnd.sample(play.states[2:], min(8, len(play.states) - 2)) + [play.state]
    for state in checked:
        for seat in (0, 1):
            other = 1 - seat
            for viewer in (Viewer.player(other), SPECTATOR):
                assert GAME.view(state, viewer) == GAME.view(
                    perturb_hidden(state, seat), viewer
                )
            mine = GAME.view(state, Viewer.player(seat))
            assert isinstance(mine, TerraloreView)
            assert mine.players[seat].deck_size == len(state.players[seat].deck)
    for k, event in enumerate(play.events):
        after = play.states[k + 1]
        for seat in (0, 1):
            hidden = set(after.players[seat].hand) | set(after.players[seat].deck)
            for viewer in (Viewer.player(1 - seat), SPECTATOR):
                shown = GAME.redact(event, viewer).model_dump_json()
                assert not any(f'"{card}"' in shown for card in hidden), (event, viewer)
        if k >= 2:
            own = GAME.redact(event, Viewer.player(0)).model_dump_json()
            assert not any(f'"{c}"' in own for c in after.players[0].deck)


@examples(500)
@given(seed=seeds)
def test_random_complete_games_keep_every_invariant(seed: bytes) -> None:
    play = play_random_game(GAME, SETUP, seed)
    check_conservation_and_hp(play)
    check_outcome(play)
    assert_replay_equals_live(play)
    assert_admin_view_is_complete(play)
    assert_round_trips(play)
    check_no_leaks(play, random.Random(seed))


@examples(25)
@given(seed=seeds)
def test_every_legal_command_decides_and_random_commands_are_legal(seed: bytes) -> None:
    play = play_random_game(GAME, SETUP, seed)
    rng_seed = random.Random(seed)
    for index, state in enumerate(play.states):
        for seat in GAME.to_act(state):
            if index % 5 or len(state.players[seat].hand) > 5:
                continue
            legal = set(itertools.islice(GAME.legal_commands(state, seat), 400))
            for command in list(legal)[:50]:
                assert_accepted(GAME, state, command, seat, _FreshRng(rng_seed))
            if len(legal) < 400:
                pick = GAME.sampler
                assert pick is not None
                assert pick(state, seat, rng_seed) in legal


class _FreshRng:
    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def randbelow(self, n: int) -> int:
        return self.rnd.randrange(n)

    def shuffle(self, items):
        out = list(items)
        self.rnd.shuffle(out)
        return tuple(out)

    def roll(self, sides: int) -> int:
        return 1 + self.rnd.randrange(sides)

    def token(self, nbytes: int = 16) -> bytes:
        return self.rnd.randbytes(nbytes)


def test_the_proto_file_matches_every_model() -> None:
    assert_proto_contract(GAME)
