"""A sample instance of any pydantic message, built from its field types.

For tests that must walk *every* declared event type of a game, including
the ones a random playthrough rarely or never reaches: each field gets a
plain value of its annotated type (seats are 1, so two seats are enough).
"""

from __future__ import annotations

import enum
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError


def sample_value(annotation: Any, name: str) -> Any:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        present = [a for a in args if a is not type(None)]
        return sample_value(present[0], name)
    if origin is typing.Literal:
        return args[0]
    if origin is tuple:
        item = args[0]
        return (sample_value(item, name), sample_value(item, name))
    if origin is dict:
        return {}
    if isinstance(annotation, type):
        if issubclass(annotation, bool):
            return True
        if issubclass(annotation, enum.Enum):
            return next(iter(annotation))
        if issubclass(annotation, int):
            return 1
        if issubclass(annotation, str):
            return f"{name}-x"
        if issubclass(annotation, BaseModel):
            return sample_model(annotation)
    raise TypeError(f"no sample for {name}: {annotation!r}")


def sample_model(cls: type[BaseModel]) -> Any:
    """``cls`` with every field set to a sample of its type.

    A model that allows only one of its optional fields (a ``oneof``, such as
    Thorgal's ``Option``) gets its required fields and the first optional one.
    """
    hints = typing.get_type_hints(cls)
    values = {name: sample_value(hints[name], name) for name in cls.model_fields}
    try:
        return cls.model_validate(values)
    except ValidationError:
        optional = [n for n, f in cls.model_fields.items() if not f.is_required()]
        keep = {n for n, f in cls.model_fields.items() if f.is_required()}
        keep.update(optional[:1])
        return cls.model_validate({n: v for n, v in values.items() if n in keep})
