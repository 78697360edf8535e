"""Generic pydantic <-> protobuf conversion, driven by message descriptors.

This is what lets ``services`` carry every game's typed moves, events and
views without knowing any game: a ruleset's pydantic class ``Foo`` has a
protobuf twin ``ledger.v1.<game>.Foo`` with the same field names (the naming
contract is in :class:`domain.core.Ruleset`).  Moves travel as
``google.protobuf.Any`` wrapping ``ledger.v1.<game>.Move`` whose ``oneof kind``
selects the command.

We walk descriptors instead of going through ``json_format`` because the JSON
mapping turns 64-bit ints into strings and drops unset optionals in ways that
do not match pydantic's model dump.
"""

from __future__ import annotations

import enum
import importlib
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor
from pydantic import BaseModel, ValidationError

from domain.core import Command, Event, InvalidCommandError, Model, Ruleset

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor
    from google.protobuf.message import Message


def snake(name: str) -> str:
    """``SelectHand`` -> ``select_hand`` (the oneof field name of a class)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@lru_cache(maxsize=None)
def _import_stubs(game: str) -> None:
    importlib.import_module(f"ledger.v1.{game}_pb2")


def message_class(full_name: str) -> type[Message]:
    """The generated class of ``ledger.v1.<game>.<Name>``.

    :raises KeyError: if no such message is compiled in.
    """
    parts = full_name.split(".")
    if len(parts) >= 4 and parts[:2] == ["ledger", "v1"]:
        _import_stubs(parts[2])
    desc = descriptor_pool.Default().FindMessageTypeByName(full_name)
    return message_factory.GetMessageClass(desc)


# ------------------------------------------------------------ pydantic -> proto


@lru_cache(maxsize=None)
def _plan(cls: type[Message]) -> tuple[tuple[str, bool, Any], ...]:
    """Per message class: (field name, repeated, nested message class or None)."""
    return tuple(
        (f.name, f.is_repeated, message_factory.GetMessageClass(f.message_type) if f.message_type else None)
        for f in cls.DESCRIPTOR.fields
    )


def _convert(nested: Any, value: Any) -> Any:
    if nested is not None:
        return to_message(value, nested)
    if isinstance(value, enum.Enum):
        return value.value
    return value


def to_message(model: BaseModel, cls: type[Message]) -> Message:
    """Build ``cls`` from a pydantic model with the same field names."""
    kwargs: dict[str, Any] = {}
    for name, repeated, nested in _plan(cls):
        value = getattr(model, name)
        if value is None:
            continue
        if repeated:
            kwargs[name] = [_convert(nested, v) for v in value]
        else:
            kwargs[name] = _convert(nested, value)
    return cls(**kwargs)


def _has_presence(field: FieldDescriptor) -> bool:
    return field.has_presence and not field.is_repeated


def to_dict(msg: Message) -> dict[str, Any]:
    """A dict pydantic can validate: unset optionals are left out (-> default)."""
    out: dict[str, Any] = {}
    for field in msg.DESCRIPTOR.fields:
        if field.containing_oneof is not None and not msg.HasField(field.name):
            continue
        if _has_presence(field) and not msg.HasField(field.name):
            continue
        value = getattr(msg, field.name)
        if field.is_repeated:
            if field.message_type is not None:
                out[field.name] = [to_dict(v) for v in value]
            else:
                out[field.name] = list(value)
        elif field.message_type is not None:
            out[field.name] = to_dict(value)
        else:
            out[field.name] = value
    return out


# ------------------------------------------------------------ per-game envelope


def _wrapper(ruleset: Ruleset[Any], kind: str) -> type[Message]:
    return message_class(f"{ruleset.proto_package}.{kind}")


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


_CACHE_SIZE = 50_000
_moves_out: dict[tuple[str, type, Command], any_pb2.Any] = {}
_moves_in: dict[tuple[str, str, bytes], Command] = {}


def _bounded_put(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()  # rare; a bounded memory beats an exact LRU here
    cache[key] = value
    return value


def command_to_any(ruleset: Ruleset[Any], command: Command) -> any_pb2.Any:
    """A command as the ``Any``-wrapped ``Move`` that ``SubmitMove`` accepts.

    Cached by value: the same few moves are listed over and over (commands
    are frozen, so equal commands encode equally).  Callers copy the result
    into their response and must not change it.
    """
    key = (ruleset.name, type(command), command)
    packed = _moves_out.get(key)
    if packed is not None:
        return packed
    wrapper = _wrapper(ruleset, "Move")
    name = snake(type(command).__name__)
    inner_cls = message_factory.GetMessageClass(
        wrapper.DESCRIPTOR.fields_by_name[name].message_type
    )
    return _bounded_put(_moves_out, key, pack(wrapper(**{name: to_message(command, inner_cls)})))


def event_to_any(ruleset: Ruleset[Any], event: Event) -> any_pb2.Any:
    wrapper = _wrapper(ruleset, "Event")
    name = snake(type(event).__name__)
    inner_cls = message_factory.GetMessageClass(
        wrapper.DESCRIPTOR.fields_by_name[name].message_type
    )
    return pack(wrapper(**{name: to_message(event, inner_cls)}))


def model_to_any(ruleset: Ruleset[Any], model: Model) -> any_pb2.Any:
    """A view or setup model as ``Any`` of its same-named message."""
    cls = message_class(f"{ruleset.proto_package}.{type(model).__name__}")
    return pack(to_message(model, cls))


def _unpack(packed: any_pb2.Any, cls: type[Message], what: str) -> Message:
    expected = cls.DESCRIPTOR.full_name
    if packed.TypeName() != expected:
        raise InvalidCommandError(
            f"{what} must be a {expected}, got {packed.TypeName() or 'nothing'}"
        )
    msg = cls()
    if not packed.Unpack(msg):
        raise InvalidCommandError(f"{what} could not be decoded as {expected}")
    return msg


def _validate(model_cls: type[Model], data: dict[str, Any], what: str) -> Any:
    try:
        return model_cls.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            for err in exc.errors()
        )
        raise InvalidCommandError(f"malformed {what}: {problems}") from None


def command_from_any(ruleset: Ruleset[Any], packed: any_pb2.Any) -> Command:
    """Parse a submitted move.

    :raises InvalidCommandError: wrong message type, no move chosen, or fields
        that fail the command's pydantic validation.
    """
    key = (ruleset.name, packed.type_url, packed.value)
    known = _moves_in.get(key)
    if known is not None:
        return known  # the same bytes parsed before (commands are immutable)
    return _bounded_put(_moves_in, key, _parse_command(ruleset, packed))


def _parse_command(ruleset: Ruleset[Any], packed: any_pb2.Any) -> Command:
    msg = _unpack(packed, _wrapper(ruleset, "Move"), "move")
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise InvalidCommandError("move has no kind set")
    inner = getattr(msg, kind)
    model_cls = ruleset.commands_by_name.get(inner.DESCRIPTOR.name)
    if model_cls is None:
        raise InvalidCommandError(f"{kind} is not a command of {ruleset.name}")
    return _validate(model_cls, to_dict(inner), f"{ruleset.name} {inner.DESCRIPTOR.name}")


def event_from_any(ruleset: Ruleset[Any], packed: any_pb2.Any) -> Event:
    msg = _unpack(packed, _wrapper(ruleset, "Event"), "event")
    kind = msg.WhichOneof("kind")
    inner = getattr(msg, kind)
    return _validate(ruleset.events_by_name[inner.DESCRIPTOR.name], to_dict(inner), "event")


def model_from_any(ruleset: Ruleset[Any], packed: any_pb2.Any, model_cls: type[Model]) -> Any:
    cls = message_class(f"{ruleset.proto_package}.{model_cls.__name__}")
    return _validate(model_cls, to_dict(_unpack(packed, cls, model_cls.__name__)), model_cls.__name__)


def descriptor_of(ruleset: Ruleset[Any], name: str) -> Descriptor:
    return message_class(f"{ruleset.proto_package}.{name}").DESCRIPTOR
