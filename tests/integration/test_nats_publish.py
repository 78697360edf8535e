"""With ``LEDGER_NATS_URL``, a move's events go to JetStream as the commit encoded them.

Each event is encoded once per move: the publisher seals the bytes the
commit stored, it does not encode the event again.  NATS with JetStream runs
on 127.0.0.1:4222.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid

import pytest

from domain.games import find_game
from domain.ledger import stored_events
from domain.ledger.aggregate import Game
from services.live.nats_tail import STREAM, NatsTail
from services.live.sealed_records import PURPOSE, RecordSeal
from tests.support.nats import setup_stream

pytestmark = pytest.mark.postgres
NATS = "nats://127.0.0.1:4222"
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def test_a_move_is_published_as_stored_without_a_second_encoding(
    own_ledger, monkeypatch
) -> None:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def on_loop(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(15)

    seal = RecordSeal(own_ledger.signer.derive_key(PURPOSE))
    setup_stream(NATS)  # the admin's step (this NATS takes anonymous clients)
    tail = NatsTail(NATS, own_ledger.mapper, Game.Concluded, seal)
    on_loop(tail.start())
    deadline = time.monotonic() + 15
    while not tail.live:  # it connects in the background
        assert time.monotonic() < deadline, "the tail never found the stream"
        time.sleep(0.05)
    try:
        own_ledger.on_committed = tail.committed
        game_id = own_ledger.create_game("thalara", SETUP).game_id
        game = own_ledger.load(game_id)
        rnd = random.Random(5)
        seat = rnd.choice(game.to_act())
        command = find_game("thalara").random_command(game.state, seat, rnd)

        encodings: list[object] = []
        encode = stored_events.encode_event

        def counted(event: object) -> bytes:
            encodings.append(event)
            return encode(event)

        monkeypatch.setattr(stored_events, "encode_event", counted)
        result = own_ledger.submit(game_id, command, seat, str(uuid.uuid4()))
        stored = {v: state for v, _, state in own_ledger.read_records(game_id)}

        async def last_published() -> tuple[int, bytes]:
            js = tail._nc.jetstream()
            for _ in range(50):  # the publish follows the commit on the loop
                try:
                    msg = await js.get_last_msg(STREAM, seal.subject(game_id))
                except Exception:  # noqa: BLE001 - not there yet
                    msg = None
                opened = seal.open(game_id, msg.data) if msg is not None else None
                if opened is not None and opened[0] == result.last_version:
                    return result.last_version, opened[2]
                await asyncio.sleep(0.1)
            raise AssertionError("the move was not published")

        version, published = on_loop(last_published())
    finally:
        on_loop(tail.stop())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
    assert encodings == [], "an event was encoded again after the commit"
    assert published == stored[version]
