"""An event's message as each viewer may see it, whoever asked for it first.

Why: the payloads of events that hide nothing from a viewer are encoded once
and shared between the streams that send them; a hidden hand must never ride
that sharing to a viewer it is redacted for.
"""

from __future__ import annotations

import random

from domain.contract.viewers import ADMIN, Viewer
from domain.games import find_game
from services.proto import convert
from services.proto.game_messages import event_message
from tests.support.examples import examples
from tests.support.random_moves import play_random


def test_a_payload_encoded_for_a_viewer_who_sees_it_is_still_redacted_for_one_who_may_not(
    isolated_ledger,
):
    ledger = isolated_ledger
    game_type, setup = examples("terralore-2p")[0]
    created = ledger.create_game(game_type, setup)
    play_random(ledger, created.game_id, random.Random(4), moves=6)
    game = ledger.load(created.game_id)
    ruleset = find_game(game_type)
    hidden = 0
    for event in ledger.store.events(created.game_id, 0, None, 1000):
        if not hasattr(event, "payload"):
            continue
        for viewer in (ADMIN, Viewer.player(0), Viewer.player(1), Viewer()):
            shown = ruleset.redact(event.payload, viewer)
            hidden += shown is not event.payload
            message = event_message(game, event, viewer, show_hashes=False)
            assert message.payload == convert.event_to_any(ruleset, shown)
    assert hidden, "the game hid something from someone"
