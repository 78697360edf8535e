"""Generic pydantic <-> protobuf conversion, driven by message descriptors.

This is what lets ``services`` carry every game's typed moves, events and
views without knowing any game: a ruleset's pydantic class ``Foo`` has a
protobuf twin ``ledger.v1.<game>.Foo`` with the same field names (the naming
contract is in :class:`domain.contract.core.Ruleset`).  Moves travel as
``google.protobuf.Any`` wrapping ``ledger.v1.<game>.Move`` whose ``oneof kind``
selects the command.

We walk descriptors instead of going through ``json_format`` because the JSON
mapping turns 64-bit ints into strings and drops unset optionals in ways that
do not match pydantic's model dump.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError
from pydantic import ValidationError

from domain.contract.core import Command, Event, InvalidCommandError, Model, Ruleset
from domain.games import all_games
from domain.ledger.clocks import TimeControl
from services.proto import limits
from services.proto.fields import (  # noqa: F401  (re-exported)
    KIND_SUFFIX,
    enum_number,
    nested_model,
    snake,
    to_dict,
    to_message,
)

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor
    from google.protobuf.message import Message

# types-protobuf types a DESCRIPTOR as the pure-Python or the upb Descriptor class; at
# run time upb backs google.protobuf.descriptor, so they are one class and the
# cast("Descriptor", ...) below are exact.


@cache
def _import_stubs(package: str) -> None:
    """Import the generated module of the game whose proto package this is.

    Why through the registry: a game registered from outside this repository
    has its stubs next to it (``Ruleset.stubs_module``), not in ``ledger.v1``.
    """
    for game in all_games():
        if game.proto_package == package:
            importlib.import_module(game.stubs_module)
            return


def message_class(full_name: str) -> type[Message]:
    """The generated class of ``ledger.v1.<game>.<Name>``.

    :raises KeyError: if no such message is compiled in.
    """
    parts = full_name.split(".")
    if len(parts) >= 4 and parts[:2] == ["ledger", "v1"]:
        _import_stubs(".".join(parts[:3]))
    desc = descriptor_pool.Default().FindMessageTypeByName(full_name)
    return message_factory.GetMessageClass(desc)


# ------------------------------------------------------------ per-game envelope


def _wrapper(ruleset: Ruleset[Any], kind: str) -> type[Message]:
    return _message_class_cached(f"{ruleset.proto_package}.{kind}")


@cache
def _message_class_cached(full_name: str) -> type[Message]:
    return message_class(full_name)


@cache
def _kind_class(wrapper: type[Message], name: str) -> type[Message]:
    """The message class of field ``name`` of a ``Move``/``Event`` wrapper."""
    return message_factory.GetMessageClass(
        cast("Descriptor", wrapper.DESCRIPTOR.fields_by_name[name].message_type)
    )


@cache
def _oneof_name(cls: type) -> str:
    return snake(cls.__name__)


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
    name = _oneof_name(type(command))
    # Message defines __eq__, so mypy takes type[Message] for unhashable; a class
    # always hashes (python/mypy#11470).
    inner_cls = _kind_class(wrapper, name)  # type: ignore[arg-type]
    return _bounded_put(
        _moves_out, key, pack(wrapper(**{name: to_message(command, inner_cls)}))
    )


def event_to_any(ruleset: Ruleset[Any], event: Event) -> any_pb2.Any:
    wrapper = _wrapper(ruleset, "Event")
    name = snake(type(event).__name__)
    inner_cls = message_factory.GetMessageClass(
        cast("Descriptor", wrapper.DESCRIPTOR.fields_by_name[name].message_type)
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
            f"{what} must be a {expected}, got {packed.TypeName() or 'nothing'}",
            violations=((what, f"must be a {expected}"),),
        )
    msg = cls()
    try:
        unpacked = packed.Unpack(msg)
    except (DecodeError, RecursionError):  # corrupt bytes, invalid UTF-8, too deep
        unpacked = False
    if not unpacked:
        raise InvalidCommandError(
            f"{what} could not be decoded as {expected} (strings must be UTF-8)"
        )
    limits.check_message(msg, what)
    return msg


def _validate(model_cls: type[Model], data: dict[str, Any], what: str) -> Any:
    try:
        return model_cls.model_validate(data)
    except ValidationError as exc:
        violations = tuple(
            (".".join(str(p) for p in err["loc"]) or "(root)", _message(err))
            for err in exc.errors()
        )
        problems = "; ".join(f"{field}: {text}" for field, text in violations)
        raise InvalidCommandError(
            f"malformed {what}: {problems}", violations=violations
        ) from None


def _message(err: Any) -> str:
    """pydantic's text, minus the "Value error, " it puts before our own errors."""
    return str(err["msg"]).removeprefix("Value error, ")


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
    return _validate(
        model_cls, to_dict(inner, model_cls), f"{ruleset.name} {inner.DESCRIPTOR.name}"
    )


def event_from_any(ruleset: Ruleset[Any], packed: any_pb2.Any) -> Event:
    msg = _unpack(packed, _wrapper(ruleset, "Event"), "event")
    kind = msg.WhichOneof("kind")
    inner = getattr(msg, kind)
    return _validate(
        ruleset.events_by_name[inner.DESCRIPTOR.name], to_dict(inner), "event"
    )


def model_from_any(
    ruleset: Ruleset[Any], packed: any_pb2.Any, model_cls: type[Model]
) -> Any:
    """A model the server encoded (a view, a stored setup): exact, no defaults."""
    cls = message_class(f"{ruleset.proto_package}.{model_cls.__name__}")
    return _validate(
        model_cls, to_dict(_unpack(packed, cls, model_cls.__name__)), model_cls.__name__
    )


def setup_from_any(ruleset: Ruleset[Any], packed: any_pb2.Any | None) -> Any:
    """A client's setup: unset *and empty* fields take the setup model's defaults.

    No setup at all is the empty setup (every default), like any unset field,
    and so is an empty ``Any`` (no type, no bytes: what a client that sets
    the field without a message sends).

    :raises InvalidCommandError: wrong message type or an invalid setup (a
        required field such as Thorgal's ``players`` left out).
    """
    model_cls = ruleset.setup_model
    data: dict[str, Any] = {}
    if packed is not None and (packed.type_url or packed.value):
        cls = message_class(f"{ruleset.proto_package}.{model_cls.__name__}")
        data = to_dict(_unpack(packed, cls, "setup"), model_cls)
    return _validate(model_cls, data, model_cls.__name__)


def descriptor_of(ruleset: Ruleset[Any], name: str) -> Descriptor:
    return cast(
        "Descriptor", message_class(f"{ruleset.proto_package}.{name}").DESCRIPTOR
    )


def delay_from_message(message: Any) -> dict[str, int] | None:
    """A ``ledger.v1.SpectatorDelay`` as the ledger's ``{"moves": n}`` or
    ``{"seconds": s}``; ``None`` when unset (validated by ``domain.ledger.spectator``)."""
    kind = message.WhichOneof("delay")
    return {kind: getattr(message, kind)} if kind else None


def time_control_from_message(request: Any) -> TimeControl | None:
    """A request's ``ledger.v1.TimeControl`` (``None`` when unset or ``none``).

    :raises InvalidCommandError: for an unknown kind or periods out of range,
        naming the field.
    """
    if not request.HasField("time_control"):
        return None
    message = request.time_control
    fields: dict[str, Any] = {
        name: getattr(message, name)
        for name in (
            "per_move_seconds",
            "base_seconds",
            "increment_seconds",
            "days_per_move",
            "no_show_seconds",
        )
    }
    fields["kind"] = message.kind or "none"
    if message.HasField("abort_before_moves"):
        fields["abort_before_moves"] = message.abort_before_moves
    control = TimeControl.checked(fields)
    return control
