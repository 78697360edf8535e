"""Checks every ruleset must pass: the protobuf twin of each pydantic message,
and generic replay/redaction invariants over a random playthrough.

Game test modules call these with their own ``GAME``; ``tests/unit/
test_registry_contract.py`` calls them for every registered game.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel

from domain.contract.core import ADMIN, SPECTATOR, Command, Rng, Ruleset, Seat, Viewer
from domain.ledger.simulate import Playthrough
from services.proto import convert


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside ``X``, ``tuple[X, ...]`` or ``X | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def assert_message_matches(ruleset: Ruleset[Any], model: type[BaseModel]) -> None:
    """The proto message of ``model`` has exactly its fields, recursively."""
    desc = convert.descriptor_of(ruleset, model.__name__)
    model_fields = set(model.model_fields)
    twins = {
        f.name: f.name.removesuffix(convert.KIND_SUFFIX)
        for f in desc.fields
        if f.enum_type is not None
        and f.name.endswith(convert.KIND_SUFFIX)
        and f.name.removesuffix(convert.KIND_SUFFIX) in model_fields
    }
    for twin, name in twins.items():  # the enum names exactly the closed set
        enum_type = desc.fields_by_name[twin].enum_type
        assert enum_type is not None  # twins holds enum fields only
        enum_values = {
            v.name.removeprefix(convert.snake(enum_type.name).upper() + "_").lower()
            for v in enum_type.values
            if v.number
        }
        literal = set(typing.get_args(model.model_fields[name].annotation))
        assert enum_values == literal, (
            f"{desc.full_name}.{twin}: {enum_values} != {literal}"
        )
    proto_fields = set(desc.fields_by_name) - set(twins)
    assert proto_fields == model_fields, (
        f"{desc.full_name}: proto-only {sorted(proto_fields - model_fields)}, "
        f"pydantic-only {sorted(model_fields - proto_fields)}"
    )
    for name, info in model.model_fields.items():
        nested = _model_of(info.annotation)
        if nested is not None:
            field = desc.fields_by_name[name]
            assert field.message_type is not None, (
                f"{desc.full_name}.{name} must be a message"
            )
            assert field.message_type.name == nested.__name__, (
                f"{desc.full_name}.{name}"
            )
            assert_message_matches(ruleset, nested)


def assert_proto_contract(ruleset: Ruleset[Any]) -> None:
    """Move/Event oneofs list every command/event; every model has its twin."""
    for wrapper, classes in (
        ("Move", ruleset.command_types),
        ("Event", ruleset.event_types),
    ):
        desc = convert.descriptor_of(ruleset, wrapper)
        oneof = desc.oneofs_by_name["kind"]
        in_oneof = {f.message_type.name for f in oneof.fields if f.message_type}
        assert in_oneof == {c.__name__ for c in classes}, f"{ruleset.name}.{wrapper}"
        for cls in classes:
            assert convert.snake(cls.__name__) in desc.fields_by_name
            assert_message_matches(ruleset, cls)
    assert_message_matches(ruleset, ruleset.view_model)
    assert_message_matches(ruleset, ruleset.setup_model)


def viewers_of(play: Playthrough) -> list[Viewer]:
    seats = [s for group in play.ruleset.player_seats(play.setup) for s in group]
    return [ADMIN, SPECTATOR, *[Viewer.player(s) for s in seats]]


def assert_round_trips(play: Playthrough) -> None:
    """Every command, redacted event and view survives pydantic->proto->pydantic."""
    ruleset = play.ruleset
    for _, command, _ in play.decisions:
        if command is not None:
            back = convert.command_from_any(
                ruleset, convert.command_to_any(ruleset, command)
            )
            assert back == command
    for viewer in viewers_of(play):
        for event in play.events:
            shown = ruleset.redact(event, viewer)
            assert type(shown) is type(event)
            assert (
                convert.event_from_any(ruleset, convert.event_to_any(ruleset, shown))
                == shown
            )
        view = ruleset.view(play.state, viewer)
        assert isinstance(view, ruleset.view_model)
        back_view = convert.model_from_any(
            ruleset, convert.model_to_any(ruleset, view), ruleset.view_model
        )
        assert back_view == view


def assert_replay_equals_live(play: Playthrough) -> None:
    assert play.replayed() == play.state


def assert_admin_view_is_complete(play: Playthrough) -> None:
    """Views are functions of state: equal states give equal views for everyone."""
    for viewer in viewers_of(play):
        assert play.ruleset.view(play.replayed(), viewer) == play.ruleset.view(
            play.state, viewer
        )


def assert_accepted(
    ruleset: Ruleset[Any], state: Any, command: Command, seat: Seat, rng: Rng
) -> None:
    """A legal command is accepted *and does something*: ``decide`` records at least
    one event and those events move the state on.  (Merely not raising would pass a
    ``decide`` that returns nothing, and the ledger would store a silent no-op.)"""
    events = ruleset.decide(state, command, seat, rng)
    assert events, f"{ruleset.name}: {command!r} by seat {seat} recorded no event"
    assert ruleset.replay(state, events) != state, (
        f"{ruleset.name}: {command!r} by seat {seat} changed nothing"
    )
