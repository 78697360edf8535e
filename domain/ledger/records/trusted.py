"""Rebuilding a game's own events from records the ledger itself stored.

Why not ``model_validate``: validating every payload on every replay was the
largest cost of a rebuild (a Thorgal ``ChoiceOffered`` runs one Python
validator per offered option).  A record read back from the ledger's own
append-only, hash-chained table was built from a validated event and stored
as its ``model_dump(mode="json")``, so validating it again can only turn JSON
types back into the field types.  :func:`trusted_decoder` compiles that
conversion once per model class from its field annotations.

It only covers what every field of every game uses today: ``int``, ``str``,
``bool``, an ``Enum``, a nested model, ``tuple[X, ...]`` and ``X | None``.  A
class with any other annotation, a field validator, a validator that runs
before the fields, private attributes, ``model_post_init``, aliases, extra
fields or a field of its own type gets ``None`` and is validated as before;
so does a record whose keys are not the class's fields.  Readers of records from elsewhere (an export, the audit) validate.
"""

from __future__ import annotations

import enum
import threading
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from domain.contract.messages import shared_fields

Convert = Callable[[Any], Any] | None
"""A JSON value to the field's value; ``None`` when they are the same.  A JSON
``null`` is kept as it is (in a dump only an ``X | None`` field holds one)."""

_UNSUPPORTED = object()
_PLAIN = (int, str, bool)
_compiling: set[type] = set()
_compile_lock = threading.RLock()
"""One thread compiles at a time: another's half-compiled class would look
like a model holding itself, and be left to validation for good."""


def _converter(annotation: Any) -> Any:
    """The :data:`Convert` for ``annotation``, or ``_UNSUPPORTED``."""
    if annotation in _PLAIN:
        return None
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in _compiling:
            return _UNSUPPORTED  # a model that holds itself: not compiled
        build = trusted_decoder(annotation)
        return _UNSUPPORTED if build is None else build
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _converter(args[0])
        if item is _UNSUPPORTED:
            return _UNSUPPORTED
        if item is None:
            return tuple
        return lambda values: tuple(map(item, values))
    if origin in (typing.Union, types.UnionType) and len(args) == 2:
        if type(None) not in args:
            return _UNSUPPORTED
        (inner,) = [a for a in args if a is not type(None)]
        return _converter(inner)  # None is passed through as it is (see build)
    return _UNSUPPORTED


def _supported_class(cls: type[BaseModel]) -> bool:
    decorators = cls.__pydantic_decorators__
    checks_only = all(
        d.info.mode == "after" for d in decorators.model_validators.values()
    )
    return (
        checks_only
        and not decorators.field_validators
        and not decorators.validators
        and not decorators.root_validators
        and not cls.__private_attributes__
        and cls.__pydantic_post_init__ is None
        and cls.model_config.get("extra") != "allow"
        and all(f.alias is None for f in cls.model_fields.values())
    )


@cache
def trusted_decoder(cls: type[BaseModel]) -> Callable[[dict[str, Any]], Any] | None:
    """A function from a stored ``model_dump(mode="json")`` of ``cls`` back to the
    model, equal to ``cls.model_validate`` of it; ``None`` when ``cls`` has
    something this module does not convert (see the module docstring).

    The instance is built as ``model_construct`` builds one: the converted
    values, defaults for absent fields, the present names as the fields set
    (a frozen class's shared, as its constructor shares it).
    """
    if not _supported_class(cls):
        return None
    spec = []
    with _compile_lock:
        _compiling.add(cls)
        try:
            for name, info in cls.model_fields.items():
                convert = _converter(info.annotation)
                if convert is _UNSUPPORTED:
                    return None
                spec.append((name, convert, info))
        finally:
            _compiling.discard(cls)
    names = frozenset(cls.model_fields)
    required = frozenset(
        name
        for name, info in cls.model_fields.items()
        if info.default is PydanticUndefined and info.default_factory is None
    )
    new = object.__new__
    setattr_ = object.__setattr__
    validate = cls.model_validate
    fields_set = shared_fields if cls.model_config.get("frozen") else set

    pairs = [(name, convert) for name, convert, _ in spec]
    count = len(pairs)

    def build(data: dict[str, Any]) -> Any:
        if len(data) == count and names.issuperset(data):  # a dump: every field
            values = {
                name: value if convert is None or value is None else convert(value)
                for name, convert in pairs
                for value in (data[name],)
            }
        elif names.issuperset(data) and required.issubset(data):
            values = {}  # a hand-written body may omit defaults
            for name, convert, info in spec:
                if name in data:
                    value = data[name]
                    values[name] = (
                        value if convert is None or value is None else convert(value)
                    )
                else:
                    values[name] = info.get_default(call_default_factory=True)
        else:
            return validate(data)  # a key unknown or missing: validation says which
        model = new(cls)
        setattr_(model, "__dict__", values)
        setattr_(model, "__pydantic_fields_set__", fields_set(data))
        setattr_(model, "__pydantic_extra__", None)
        setattr_(model, "__pydantic_private__", None)
        return model

    return build
