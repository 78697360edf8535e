"""When a held aggregate may answer a read without a round trip (services.ledger.heads)."""

from __future__ import annotations

import uuid

from services.ledger.heads import Heads

GAME = uuid.uuid4()


def test_nothing_is_trusted_before_listening() -> None:
    heads = Heads()
    assert not heads.is_newest(GAME, 10, heads.epoch)


def test_a_game_held_since_listening_is_current_until_a_newer_version_is_notified() -> (
    None
):
    heads = Heads()
    heads.listening()
    epoch = heads.epoch
    assert heads.is_newest(GAME, 5, epoch)
    heads.saw_payload(f"{GAME}:5")  # our own commit coming back
    assert heads.is_newest(GAME, 5, epoch)
    heads.saw_payload(f"{GAME}:7")  # another process moved on
    assert not heads.is_newest(GAME, 5, epoch)
    assert heads.is_newest(GAME, 7, epoch)


def test_versions_never_go_backwards() -> None:
    heads = Heads()
    heads.listening()
    heads.saw(str(GAME), 9)
    heads.saw(str(GAME), 4)  # a late notification
    assert not heads.is_newest(GAME, 8, heads.epoch)


def test_losing_the_connection_distrusts_everything_held_before_it() -> None:
    heads = Heads()
    heads.listening()
    old = heads.epoch
    heads.deaf()
    assert not heads.is_newest(GAME, 5, old)
    heads.listening()
    assert not heads.is_newest(GAME, 5, old), (
        "held from before the reconnect: moves may have been missed"
    )
    assert heads.is_newest(GAME, 5, heads.epoch)


def test_overflowing_the_table_starts_a_new_epoch_instead_of_forgetting() -> None:
    heads = Heads(capacity=3)
    heads.listening()
    old = heads.epoch
    for i in range(4):
        heads.saw(str(uuid.uuid4()), 1)
    assert heads.epoch != old
    assert not heads.is_newest(GAME, 1, old)


def test_an_unreadable_payload_starts_a_new_epoch() -> None:
    heads = Heads()
    heads.listening()
    old = heads.epoch
    heads.saw_payload("garbage")
    assert heads.epoch != old
