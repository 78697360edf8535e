"""The naming contract of :class:`domain.contract.core.Ruleset`: pydantic annotation -> proto type.

Why apart from :mod:`services.proto.schema`: these are pure functions of
one annotation or one model class, the rule a ruleset's author reads to know
what a field becomes on the wire; the writer there only numbers and lays out
what they return, keeping the old file's wire layout.

Shapes: ``int`` -> ``int32``, ``str``/str enums/``Literal`` -> ``string``,
``bool``, ``float`` -> ``double``, ``tuple[X, ...]`` -> ``repeated X``, ``X |
None`` -> ``optional X``, a model -> its message. A ``Literal`` field of the
setup model also gets an enum twin ``<name>_kind`` (numbered from 70), which
``proto_convert`` fills both ways. A model whose fields are alternatives
(exactly one set) says so with ``proto_oneof: ClassVar[str] = "kind"``.
"""

from __future__ import annotations

import ast
import enum
import inspect
import itertools
import textwrap
import types
import typing
from typing import Any, Literal, Union

from pydantic import BaseModel

_SCALARS: dict[Any, str] = {int: "int32", str: "string", bool: "bool", float: "double"}


def unwrap(annotation: Any) -> tuple[Any, str]:
    """``(inner type, label)``: label is ``repeated``, ``optional`` or ``""``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0], "repeated"
    if origin in (Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return rest[0], "optional"
    return annotation, ""


def proto_type(annotation: Any, where: str) -> tuple[str, type[BaseModel] | None]:
    """The proto type name of a (non-container) annotation, and its model if any.

    :raises TypeError: for a type the naming contract has no twin for.
    """
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation.__name__, annotation
    if typing.get_origin(annotation) is Literal:
        return "string", None  # a closed set travels as its string value
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "string", None
    if annotation in _SCALARS:
        return _SCALARS[annotation], None
    raise TypeError(f"{where}: no protobuf twin for {annotation!r}")


def attribute_docs(model: type[BaseModel]) -> dict[str, str]:
    """``field: int`` followed by a ``\"\"\"docstring\"\"\"``: field -> first line."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(model)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and hasattr(tree.body[0], "body") else []
    docs = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.split("\n\n")[0].split())
    return docs


def message_doc(model: type[BaseModel], indent: str = "") -> list[str]:
    doc = model.__dict__.get("__doc__") or ""
    first = " ".join(doc.strip().split("\n\n", 1)[0].split())
    return [f"{indent}// {first}"] if first else []
