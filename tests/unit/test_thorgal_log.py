"""The stored log: the game's facts plus one event per question and answer; replay rebuilds it all."""

from __future__ import annotations

from domain.games.thorgal import GAME
from domain.games.thorgal import events as E
from domain.games.thorgal.evolve import evolve
from domain.games.thorgal.evolve_board import board
from domain.games.thorgal.setup import ThorgalSetup
from domain.ledger.simulate import decode_event, play_random_game
from tests.unit.test_thorgal_choices import moving
from tests.unit.test_thorgal_rules import choose, do, fresh, hero


def test_no_resolution_stack_step_is_stored():
    names = {cls.__name__ for cls in GAME.event_types}
    assert not names & {
        "TasksScheduled",
        "TaskPopped",
        "DecisionRequested",
        "DecisionMade",
    }


def test_evolve_has_one_handler_for_each_declared_event_and_no_other():
    assert set(evolve.handlers) == set(GAME.event_types)
    assert set(board.handlers) < set(evolve.handlers)  # the table half is included


def test_a_question_records_the_steps_left_to_resolve_after_it():
    s = hero(
        hero(fresh(), 0, area="forest", goods=(0,) * 6),
        1,
        area="forest",
        goods=(0, 0, 0, 1, 0, 0),
    )
    s, ev = do(moving(s, 1), choose("area:shrine:red0:blue1"))
    offered = [e for e in ev if isinstance(e, E.ChoiceOffered)]
    assert [e.pending.kind for e in offered] == ["pay_from"]
    assert [t.op for t in offered[0].tasks] == [
        "pay",
        "moved",
    ]  # pay the Blue border, then move
    assert s.tasks == offered[0].tasks


def test_replay_of_the_stored_records_rebuilds_the_stack_and_question_after_every_decision():
    for players in (1, 4):
        play = play_random_game(
            GAME, ThorgalSetup(players=players), bytes([players]) * 32
        )
        stored = [decode_event(GAME, t, d) for t, d in play.stored_records()]
        state, at = GAME.initial_state(play.setup), 0
        for _, _, events in play.decisions:
            state = GAME.replay(state, stored[at : at + len(events)])
            at += len(events)
            live = play.states[at]
            assert (state.tasks, state.pending) == (live.tasks, live.pending)
            assert (
                state.pending is not None or state.tasks == ()
            )  # a stop with no question has no stack
        assert state == play.state


def test_a_turn_begins_with_nothing_left_to_resolve():
    s = fresh()
    assert s.phase == "action" and s.tasks == () and s.pending is None
