"""``decide``: validate a command against the rules and return its events.

Order of checks: game over, malformed input (``InvalidCommandError``: unknown
seat, card, conflict or spell ids, duplicates), then the rules
(``IllegalCommandError`` with a stable ``thalara.*`` id).  Messages never
name cards the actor cannot see.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from domain.contract.chance import commit
from domain.contract.core import (
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
)
from domain.games.kit import Decision

from .. import events as ev
from ..commands import (
    Pass,
    PlayCard,
    ReturnRemnants,
    SelectHand,
    SpellActivation,
)
from ..content import (
    card_info,
    catalogue,
    characters,
    spell_of,
    spells,
)
from ..evolve import evolve
from ..state import (
    OVER,
    PLAY,
    RETURN,
    SELECT,
    STANDARD,
    PlayerState,
    ThalaraState,
)
from .rounds import begin_round, end_round, hand_need
from .spells import (
    find_conflict,
    is_requirement_met,
    targets,
)

if TYPE_CHECKING:
    from domain.contract.core import Command, Event, Rng


def _known_cards(state: ThalaraState, cards: tuple[str, ...]) -> None:
    table = catalogue(state.content, state.seats)
    for card in cards:
        if card not in table:
            raise InvalidCommandError(f"unknown card {card!r}")
    if len(set(cards)) != len(cards):
        raise InvalidCommandError("a card is listed twice")


def _known_conflict(state: ThalaraState, artifact: str) -> None:
    info = catalogue(state.content, state.seats).get(artifact)
    if info is None or info.kind != "artifact":
        raise InvalidCommandError(
            f"unknown conflict {artifact!r} (name it by its Artifact)"
        )


def _phase(state: ThalaraState, phase: str, what: str) -> None:
    if state.phase != phase:
        raise IllegalCommandError(
            "thalara.wrong-phase", f"{what} is not possible now ({state.phase} phase)"
        )


def _round_choice(
    state: ThalaraState,
    cards: tuple[str, ...],
    actor: int,
    phase: tuple[str, str],
    already: tuple[str, str],
) -> PlayerState:
    """``actor``'s seat, checked for a secret choice of ``cards`` made once per
    round in a phase (selecting a hand, returning Remnants).

    ``phase`` is the phase and what is done in it; ``already`` the rule and
    message for a seat that has chosen this round.

    :raises InvalidCommandError: for an unknown or repeated card.
    :raises IllegalCommandError: in another phase, or if the seat has chosen.
    """
    _known_cards(state, cards)
    _phase(state, *phase)
    player = state.players[actor]
    if player.ready:
        raise IllegalCommandError(*already)
    return player


def decide(state: ThalaraState, command: Command, actor: int, rng: Rng) -> list[Event]:
    """The events ``command`` by ``actor`` causes.

    :raises GameOverError: after the game ended.
    :raises InvalidCommandError: for a malformed command.
    :raises IllegalCommandError: for a move the rules forbid now.
    """
    if state.phase == OVER:
        raise GameOverError()
    if not 0 <= actor < state.seats:
        raise InvalidCommandError(f"there is no seat {actor}")
    if isinstance(command, SelectHand):
        return _select(state, command, actor, rng)
    if isinstance(command, PlayCard):
        return _play(state, command, actor, rng)
    if isinstance(command, Pass):
        return _pass(state, actor, rng)
    if isinstance(command, ReturnRemnants):
        return _return(state, command, actor, rng)
    raise InvalidCommandError(f"{type(command).__name__} is not a Thalara command")


def selection_payload(seat: int, round_: int, cards: tuple[str, ...]) -> str:
    """Canonical text committed to by a secret hand selection."""
    return json.dumps(
        {"cards": sorted(cards), "round": round_, "seat": seat}, separators=(",", ":")
    )


def _select(state: ThalaraState, cmd: SelectHand, actor: int, rng: Rng) -> list[Event]:
    player = _round_choice(
        state,
        cmd.cards,
        actor,
        (SELECT, "selecting a hand"),
        ("thalara.already-selected", "you already selected your hand this round"),
    )
    if not set(cmd.cards) <= set(player.supply):
        raise IllegalCommandError(
            "thalara.not-in-supply", "select only Remnants from your own supply"
        )
    need = hand_need(player)
    if len(cmd.cards) != need:
        raise IllegalCommandError(
            "thalara.hand-size",
            f"select exactly {need} Remnants (7 hand cards in total)",
        )
    cards = tuple(sorted(cmd.cards))
    commitment = commit(rng.token(), selection_payload(actor, state.round, cards))
    return [
        ev.HandSelected(
            seat=actor, cards=cards, count=len(cards), commitment=commitment
        )
    ]


def _check_shape(state: ThalaraState, cmd: PlayCard) -> None:
    _known_cards(state, (cmd.card,))
    _known_conflict(state, cmd.conflict)
    if cmd.spell is not None:
        if cmd.spell.spell not in spells(state.content):
            raise InvalidCommandError(f"unknown spell {cmd.spell.spell!r}")
        _known_conflict(state, cmd.spell.conflict)
        if cmd.spell.target is not None:
            _known_cards(state, (cmd.spell.target,))


def _play(state: ThalaraState, cmd: PlayCard, actor: int, rng: Rng) -> list[Event]:
    _check_shape(state, cmd)
    _phase(state, PLAY, "playing a card")
    if state.current != actor:
        raise NotYourTurnError()
    if cmd.card not in state.players[actor].hand:
        raise IllegalCommandError(
            "thalara.card-not-in-hand", "play a card from your own hand"
        )
    if find_conflict(state, cmd.conflict) is None:
        raise IllegalCommandError(
            "thalara.no-such-conflict", "that Artifact is not in play this round"
        )
    played = ev.CardPlayed(seat=actor, card=cmd.card, conflict=cmd.conflict)
    events: list[Event] = [played]
    if cmd.spell is not None:
        events += spell_events(evolve(state, played), cmd.spell, actor)
    return events


def spell_events(state: ThalaraState, act: SpellActivation, actor: int) -> list[Event]:
    """Validate a spell activation after the card was played; its events.

    :raises IllegalCommandError: not the caster's spell, already used this
        round, requirement not met by own colours, or a bad target.
    """
    player = state.players[actor]
    if act.spell not in {
        s.id for s in characters(state.content)[player.character].spells
    }:
        raise IllegalCommandError(
            "thalara.not-your-spell", "activate only your own character's spells"
        )
    if act.spell in player.spells_used:
        raise IllegalCommandError(
            "thalara.spell-once-per-round", "each spell can be activated once per round"
        )
    conflict = find_conflict(state, act.conflict)
    if conflict is None:
        raise IllegalCommandError(
            "thalara.no-such-conflict", "that Artifact is not in play this round"
        )
    spell = spell_of(state, act.spell)
    if not is_requirement_met(state, conflict, actor, spell):
        raise IllegalCommandError(
            "thalara.spell-requirement",
            "your own energy cards in that conflict do not show the required colours",
        )
    if spell.effect.is_targeted != (act.target is not None):
        raise IllegalCommandError(
            "thalara.spell-target",
            "this spell needs exactly one target card"
            if spell.effect.is_targeted
            else "this spell takes no target",
        )
    if act.target is not None and act.target not in set(
        targets(state, conflict, actor, spell)
    ):
        raise IllegalCommandError(
            "thalara.spell-target", "that card is not a valid target in this conflict"
        )
    events: list[Event] = [
        ev.SpellActivated(
            seat=actor, spell=act.spell, conflict=act.conflict, target=act.target
        )
    ]
    if act.target is None:
        return events
    owner = next(p.owner for p in conflict.plays if p.card == act.target)
    if spell.effect.kind == "destroy":
        events.append(
            ev.CardDestroyed(card=act.target, owner=owner, conflict=act.conflict)
        )
    else:
        to_supply = (
            state.mode == STANDARD
            and state.players[owner].passed
            and card_info(state, act.target).kind == "remnant"
        )
        events.append(
            ev.CardReturned(
                card=act.target, owner=owner, conflict=act.conflict, to_supply=to_supply
            )
        )
    return events


def _pass(state: ThalaraState, actor: int, rng: Rng) -> list[Event]:
    _phase(state, PLAY, "passing")
    if state.current != actor:
        raise NotYourTurnError()
    log = Decision(state, evolve)
    log.emit(ev.Passed(seat=actor))
    if all(p.passed for p in log.state.players):
        end_round(log, rng)
    return log.events


def _return(
    state: ThalaraState, cmd: ReturnRemnants, actor: int, rng: Rng
) -> list[Event]:
    player = _round_choice(
        state,
        cmd.cards,
        actor,
        (RETURN, "returning Remnants"),
        ("thalara.already-chosen", "you already chose what to return this round"),
    )
    hand = set(player.hand)
    for card in cmd.cards:
        if card not in hand:
            raise IllegalCommandError(
                "thalara.not-in-hand", "return only cards from your own hand"
            )
        if card_info(state, card).kind != "remnant":
            raise IllegalCommandError(
                "thalara.artifacts-stay", "Artifacts always return to your hand"
            )
    cards = tuple(sorted(cmd.cards))
    log = Decision(state, evolve)
    log.emit(ev.RemnantsReturned(seat=actor, cards=cards, count=len(cards)))
    if all(p.ready for p in log.state.players):
        begin_round(log, rng)
    return log.events
