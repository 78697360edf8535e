"""A replay frame for people: the event's sentence and the board after it.

Why on the server, from the frame ``ListFrames`` sent: the frame is already
what an anonymous caller may see (a running game's public view, everything
once it ended), and the sentence and board are drawn only from it, with the
game's own words (:mod:`domain.words.narration`) and drawn board (inline SVG,
:mod:`domain.words.board_svg`, through :func:`domain.words.board_html.board`),
in the words ``ledger replay`` prints.  So the page cannot show more than the
JSON behind its toggle, and no browser code words an event.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

from domain.words.board_html import board
from domain.words.narration import seat_names
from domain.words.sentences import seat_name
from ledger.v1 import read_service_pb2 as rpb
from services.proto import convert
from services.proto.event_words import sentence


def names_of(game: Any) -> dict[int, str]:
    """Seat -> player name for ``game`` (empty for a game created without ids)."""
    return seat_names(game.ruleset, game.setup, tuple(game.player_ids or ()))


def readable(game: Any, response: rpb.ListFramesResponse) -> dict[str, Any]:
    """``response`` as JSON, each frame with its ``sentence``, ``board``
    (an HTML fragment: the game's SVG drawing) and ``actor`` (the acting seat as people read it: see
    :func:`domain.words.sentences.seat_name`)."""
    ruleset = game.ruleset
    names = names_of(game)
    out = json_format.MessageToDict(response, preserving_proto_field_name=True)
    out.setdefault("frames", [])  # a page with none still says so
    for frame, shown in zip(response.frames, out["frames"]):
        event = frame.event
        shown["sentence"] = sentence(ruleset, names, event.type, event.payload)
        if event.HasField("actor"):
            shown["actor"] = seat_name(names, event.actor)
        if frame.HasField("view"):
            view = convert.model_from_any(ruleset, frame.view, ruleset.view_model)
            shown["board"] = board(ruleset, view, names)
    return out
