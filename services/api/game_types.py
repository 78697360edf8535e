"""``ListGameTypes``: each game, its content packs and how to fill in its setup.

Generated, never hand-listed: a setup field's type, default and required-ness
come from the ruleset's pydantic setup model, its allowed values from a
``Literal`` annotation (a set the rulebook fixes) or from the ruleset's
``content_packs()`` (a set the content defines), and the example setups are
built from those values and kept only if the ruleset's own
``initial_state`` accepts them.  So a client with nothing but reflection and
this answer can build a valid setup.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from domain.contract.core import RuleError, Ruleset
from domain.contract.setup_options import PackOptions
from domain.games import all_games
from ledger.v1 import game_service_pb2 as pb
from services.api.read_rpc import from_row
from services.proto import convert


def _literal_values(annotation: Any) -> tuple[str, ...]:
    """``Literal["a", "b"]`` (possibly inside a tuple or ``| None``) -> ("a", "b")."""
    if get_origin(annotation) is Literal:
        return tuple(str(v) for v in get_args(annotation))
    for arg in get_args(annotation):
        found = _literal_values(arg)
        if found:
            return found
    return ()


def _fields(model: type[BaseModel], prefix: str = "") -> list[tuple[str, Any]]:
    """(path, FieldInfo) of every field, nested setup messages flattened."""
    out = []
    for name, info in model.model_fields.items():
        nested = convert.nested_model(model, name)
        if nested is not None:
            out.extend(_fields(nested, f"{prefix}{name}."))
        else:
            out.append((f"{prefix}{name}", info))
    return out


def _default_packs(ruleset: Ruleset[Any]) -> tuple[PackOptions, ...]:
    return (
        PackOptions(
            name=ruleset.content_label,
            label=ruleset.content_label,
            min_players=ruleset.min_players,
            max_players=ruleset.max_players,
        ),
    )


def _setup_fields(ruleset: Ruleset[Any], pack: PackOptions) -> list[pb.SetupField]:
    choices = {c.field: c for c in pack.choices}
    out = []
    for path, info in _fields(ruleset.setup_model):
        choice = choices.get(path)
        allowed = _literal_values(info.annotation)
        if choice is not None:
            allowed = choice.values
        elif path == "content":
            allowed = (pack.name,)
        field = pb.SetupField(
            name=path,
            allowed_values=allowed,
            per_seat=bool(choice and choice.per_seat),
            required=info.is_required(),
        )
        if not info.is_required():
            field.default_json = json.dumps(to_jsonable_python(info.get_default()))
        out.append(field)
    return out


def example_setups(ruleset: Ruleset[Any], pack: PackOptions) -> list[Any]:
    """One valid setup per player count and closed-set choice, for this pack."""
    model = ruleset.setup_model
    closed = {
        name: _literal_values(info.annotation)
        for name, info in model.model_fields.items()
        if _literal_values(info.annotation) and name != "players"
    }
    out = []
    for players in range(pack.min_players, pack.max_players + 1):
        for values in itertools.product(*closed.values()):
            data: dict[str, Any] = {"players": players, **dict(zip(closed, values))}
            if "content" in model.model_fields:
                data["content"] = pack.name
            try:
                seats = sum(len(s) for s in ruleset.player_seats(model(**data)))
                for choice in pack.choices:
                    if choice.per_seat and choice.values:
                        data[choice.field] = tuple(
                            choice.values[i % len(choice.values)] for i in range(seats)
                        )
                setup = model(**data)
                ruleset.initial_state(setup)
            except (RuleError, ValueError):
                continue  # not a valid table with these values: no example
            out.append(convert.model_to_any(ruleset, setup))
    return out


def game_type(ruleset: Ruleset[Any]) -> pb.GameType:
    packs = (
        ruleset.content_packs() if ruleset.content_packs else _default_packs(ruleset)
    )
    return pb.GameType(
        name=ruleset.name,
        title=ruleset.title,
        min_players=ruleset.min_players,
        max_players=ruleset.max_players,
        setup_message=f"{ruleset.proto_package}.{ruleset.setup_model.__name__}",
        move_message=f"{ruleset.proto_package}.Move",
        event_message=f"{ruleset.proto_package}.Event",
        view_message=f"{ruleset.proto_package}.{ruleset.view_model.__name__}",
        content=ruleset.content_label,
        ruleset_version=ruleset.version,
        content_packs=[
            from_row(
                pb.ContentPack,
                pack,
                setup_fields=_setup_fields(ruleset, pack),
                example_setups=example_setups(ruleset, pack),
            )
            for pack in packs
        ],
    )


@cache
def list_game_types() -> pb.ListGameTypesResponse:
    """Computed once: rulesets and shipped content do not change while serving."""
    return pb.ListGameTypesResponse(game_types=[game_type(g) for g in all_games()])
