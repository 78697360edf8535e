"""Field-by-field conversion between pydantic models and protobuf messages.

Both directions walk descriptors (see :mod:`services.proto.convert` for why not
``json_format``).  Two contracts live here: *empty means default* for what a
client sends (proto3 cannot tell unset from empty), and *enum twins*: an
enum field ``<name>_kind`` is the typed form of the string field ``<name>``
(``THALARA_MODE_CASUAL_CHAOS`` <-> ``"casual_chaos"``).
"""

from __future__ import annotations

import enum
import re
from functools import cache
from typing import TYPE_CHECKING, Any, cast, get_args

from google.protobuf import message_factory
from google.protobuf.descriptor import FieldDescriptor
from pydantic import BaseModel

from domain.contract.core import InvalidCommandError

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor, EnumDescriptor
    from google.protobuf.message import Message

# types-protobuf types a DESCRIPTOR as the pure-Python or the upb Descriptor class; at
# run time upb backs google.protobuf.descriptor, so they are one class and the
# cast("Descriptor", ...) below are exact.


def snake(name: str) -> str:
    """``SelectHand`` -> ``select_hand`` (the oneof field name of a class)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# ------------------------------------------------------------ pydantic -> proto


@cache
def _plan(cls: type[Message]) -> tuple[tuple[str, str, bool, Any], ...]:
    """Per message class: (field, model attribute, repeated, nested class, enum).

    An enum field ``<name>_kind`` reads the model's ``<name>``; any other
    enum field reads the model attribute of its own name.
    """
    return tuple(
        (
            f.name,
            _twin(f) or f.name,
            f.is_repeated,
            message_factory.GetMessageClass(f.message_type) if f.message_type else f,
        )
        for f in cast("Descriptor", cls.DESCRIPTOR).fields
    )


def _convert(nested: Any, value: Any) -> Any:
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(nested, FieldDescriptor):
        return enum_number(nested, value) if nested.enum_type is not None else value
    return to_message(value, nested)


def to_message(model: BaseModel, cls: type[Message]) -> Message:
    """Build ``cls`` from a pydantic model with the same field names."""
    kwargs: dict[str, Any] = {}
    # Message defines __eq__, so mypy takes type[Message] for unhashable; a class
    # always hashes (python/mypy#11470).
    for name, attribute, repeated, nested in _plan(cls):  # type: ignore[arg-type]
        value = getattr(model, attribute, None)
        if value is None:
            continue
        if repeated:
            kwargs[name] = [_convert(nested, v) for v in value]
        else:
            kwargs[name] = _convert(nested, value)
    return cls(**kwargs)


def _has_presence(field: FieldDescriptor) -> bool:
    return field.has_presence and not field.is_repeated


def _enum_type(field: FieldDescriptor) -> EnumDescriptor:
    """The enum of an enum field (callers only pass enum fields)."""
    assert field.enum_type is not None, f"{field.name} is not an enum field"
    return field.enum_type


def _enum_value(field: FieldDescriptor, number: int) -> str:
    """``THALARA_MODE_CASUAL_CHAOS`` of enum ``ThalaraMode`` -> ``casual_chaos``.

    :raises InvalidCommandError: a number the enum does not define (proto3
        enums are open: a client may send any int).
    """
    enum_type = _enum_type(field)
    prefix = snake(enum_type.name).upper() + "_"
    value = enum_type.values_by_number.get(number)
    if value is None:
        raise InvalidCommandError(
            f"{field.name}: {number} is not a {enum_type.name}",
            violations=((field.name, f"not a {enum_type.name} value"),),
        )
    return value.name.removeprefix(prefix).lower()


def enum_number(field: FieldDescriptor, value: str) -> int:
    """The inverse of :func:`_enum_value` (0, unspecified, for an unknown value)."""
    enum_type = _enum_type(field)
    prefix = snake(enum_type.name).upper() + "_"
    found = enum_type.values_by_name.get(prefix + str(value).upper())
    return found.number if found is not None else 0


def _twin(field: FieldDescriptor) -> str | None:
    """The string field an enum field ``<name>_kind`` stands beside, if any."""
    if field.enum_type is not None and field.name.endswith(KIND_SUFFIX):
        return field.name.removesuffix(KIND_SUFFIX)
    return None


KIND_SUFFIX = "_kind"
"""Naming contract for closed sets: an enum field ``mode_kind`` is the typed
twin of the string field ``mode`` (same value, ``THALARA_MODE_STANDARD`` ->
``"standard"``); clients may send either, the server fills both."""


def nested_model(model: type[BaseModel] | None, name: str) -> type[BaseModel] | None:
    """The pydantic class of field ``name`` (through tuples and ``X | None``)."""
    if model is None or name not in model.model_fields:
        return None
    stack = [model.model_fields[name].annotation]
    while stack:
        tp = stack.pop()
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp
        stack.extend(get_args(tp))
    return None


def _is_empty(field: FieldDescriptor, value: Any) -> bool:
    if field.is_repeated:
        return len(value) == 0
    if field.message_type is not None:
        return False
    return value == field.default_value


def to_dict(msg: Message, model: type[BaseModel] | None = None) -> dict[str, Any]:
    """A dict pydantic can validate: unset optionals are left out (-> default).

    With ``model`` (input from a client: a setup or a move), an *empty* value
    (``""``, ``0``, an empty list, an unspecified enum) also takes the
    model's default: proto3 cannot tell "unset" from "empty", so a client
    that leaves ``content`` out must get ``"sample"``, not ``""``.  Fields the
    model requires keep their empty value (and fail its validation clearly).
    """
    out: dict[str, Any] = {}
    fields = model.model_fields if model is not None else {}
    for field in cast("Descriptor", msg.DESCRIPTOR).fields:
        if field.containing_oneof is not None and not msg.HasField(field.name):
            continue
        if _has_presence(field) and not msg.HasField(field.name):
            continue
        value = getattr(msg, field.name)
        twin = _twin(field) if model is not None else None
        if twin is not None and twin in fields and field.name not in fields:
            if value:
                chosen = _enum_value(field, value)
                if out.get(twin, chosen) != chosen:
                    raise InvalidCommandError(
                        f"{twin} and {field.name} disagree",
                        violations=((field.name, f"{twin} says {out[twin]!r}"),),
                    )
                out[twin] = chosen
            continue
        if model is not None and _is_empty(field, value):
            spec = fields.get(field.name)
            if spec is not None and not spec.is_required():
                continue
        if field.is_repeated:
            if field.message_type is not None:
                nested = nested_model(model, field.name)
                out[field.name] = [to_dict(v, nested) for v in value]
            else:
                out[field.name] = list(value)
        elif field.message_type is not None:
            out[field.name] = to_dict(value, nested_model(model, field.name))
        elif field.enum_type is not None:
            out[field.name] = _enum_value(field, value)
        else:
            if field.name in out and out[field.name] != value:  # its _kind twin
                raise InvalidCommandError(
                    f"{field.name} and {field.name}{KIND_SUFFIX} disagree",
                    violations=((field.name, f"the enum says {out[field.name]!r}"),),
                )
            out[field.name] = value
    return out
