"""The signer's record: never two histories of one game, across processes and restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.ledger.receipts import Signer
from domain.ledger.signed_heads import EquivocationError, SignedHead, refusal
from services.ledger.head_signer import HeadSigner, NewHead
from services.storage import signed_heads
from services.storage.signed_heads import SignedHeadsFile

GAME = "6f1c5d0e-0000-4000-8000-000000000001"
H = {v: f"{v:064x}" for v in range(1, 60)}


def test_extending_the_signed_head_is_allowed_and_a_retry_of_it_too():
    last = SignedHead(GAME, 10, H[10])
    assert refusal(None, 1, "0" * 64, 1, H[1]) is None
    assert refusal(last, 11, H[10], 13, H[13]) is None
    assert refusal(last, 9, H[8], 10, H[10]) is None  # the same head again


@pytest.mark.parametrize(
    ("first", "prev", "version", "head", "says"),
    [
        (
            9,
            H[8],
            10,
            "f" * 64,
            "already signed version 10",
        ),  # same version, other hash
        (5, H[4], 7, H[7], "already signed version 10"),  # below: a rollback
        (8, H[7], 12, H[12], "inside the history"),  # replayed past the old end
        (10, H[9], 12, H[12], "inside the history"),  # the signed head itself replaced
        (11, "e" * 64, 12, H[12], "does not follow"),  # the head rewritten under it
    ],
)
def test_a_second_history_is_refused(first, prev, version, head, says):
    reason = refusal(SignedHead(GAME, 10, H[10]), first, prev, version, head)
    assert reason is not None and says in reason


def test_the_record_survives_a_restart_and_is_shared_by_processes(tmp_path: Path):
    one = SignedHeadsFile.in_dir(tmp_path)
    two = SignedHeadsFile.in_dir(tmp_path)  # another server process on the data dir
    one.record(SignedHead(GAME, 10, H[10]))
    assert refusal(one.last(GAME), 5, H[4], 6, H[6]) is not None  # before the disk
    one.flush()
    assert refusal(two.last(GAME), 5, H[4], 6, H[6]) is not None
    two.record(SignedHead(GAME, 12, H[12]))
    two.flush()
    one.record(SignedHead(GAME, 11, H[11]))  # older than what the other wrote: kept out
    one.flush()
    assert one.last(GAME) == SignedHead(GAME, 12, H[12])
    restarted = SignedHeadsFile.in_dir(tmp_path)
    assert restarted.last(GAME) == SignedHead(GAME, 12, H[12])
    assert (tmp_path / "signed-heads.ndjson").stat().st_mode & 0o077 == 0


def test_a_torn_last_line_is_read_once_it_is_complete(tmp_path: Path):
    path = tmp_path / "signed-heads.ndjson"
    path.write_text(
        f'{{"game_id":"{GAME}","version":3,"head_hash":"{H[3]}"}}\n{{"game_'
    )
    record = SignedHeadsFile(path)
    assert record.last(GAME) == SignedHead(GAME, 3, H[3])
    with path.open("a") as fh:
        fh.write(f'id":"{GAME}","version":4,"head_hash":"{H[4]}"}}\n')
    assert record.last(GAME) == SignedHead(GAME, 4, H[4])


def _count_parsed(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The lines parsed back from the record from now on, as they are parsed."""
    parsed: list[dict[str, object]] = []
    read = SignedHead.from_json

    def counted(data: dict[str, object]) -> SignedHead:
        parsed.append(data)
        return read(data)

    monkeypatch.setattr(SignedHead, "from_json", staticmethod(counted))
    return parsed


def test_a_process_reads_back_only_what_others_appended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A signature's check costs the same however much this process wrote:
    its own lines are never parsed again, another process's still arrive."""
    one, two = SignedHeadsFile.in_dir(tmp_path), SignedHeadsFile.in_dir(tmp_path)
    parsed = _count_parsed(monkeypatch)
    for version in range(1, 30):
        one.record(SignedHead(GAME, version, H[version]))
    one.flush()
    assert one.last(GAME) == SignedHead(GAME, 29, H[29])
    assert parsed == []  # none of its own lines read back
    two.record(SignedHead(GAME, 30, H[30]))
    two.flush()  # it reads what ``one`` wrote first
    parsed.clear()
    assert one.last(GAME) == SignedHead(GAME, 30, H[30])
    assert [d["version"] for d in parsed] == [30]


def test_a_check_during_the_writers_fsync_reads_none_of_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The writer's lines are in the file before its fsync ends, and a move
    checks its head meanwhile: it must not parse them back either."""
    record = SignedHeadsFile.in_dir(tmp_path)
    parsed = _count_parsed(monkeypatch)
    seen: list[SignedHead | None] = []
    fsync = signed_heads.os.fsync

    def checked_fsync(fd: int) -> None:
        seen.append(record.last(GAME))  # a move's check, mid-write
        fsync(fd)

    monkeypatch.setattr(signed_heads.os, "fsync", checked_fsync)
    for version in range(1, 4):
        record.record(SignedHead(GAME, version, H[version]))
    record.flush()
    assert seen == [SignedHead(GAME, 3, H[3])]
    assert parsed == []


def test_a_failed_append_gives_its_place_in_the_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A write that fails gives its place in the file back: another
    process's next lines, where this one's would have been, are still read."""
    one, two = SignedHeadsFile.in_dir(tmp_path), SignedHeadsFile.in_dir(tmp_path)
    write = signed_heads.os.write

    def failing(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(signed_heads.os, "write", failing)
    one.record(SignedHead(GAME, 1, H[1]))
    one.flush()
    assert one.unwritable
    monkeypatch.setattr(signed_heads.os, "write", write)
    two.record(SignedHead(GAME, 2, H[2]))
    two.flush()
    assert one.last(GAME) == SignedHead(GAME, 2, H[2])


def test_the_head_signer_refuses_with_an_alarm_and_signs_nothing(tmp_path: Path):
    from services.observability.metrics import SIGNER_REFUSALS

    signer = Signer.generate()
    heads = HeadSigner(lambda: signer, SignedHeadsFile.in_dir(tmp_path))
    receipt = heads.sign(NewHead(GAME, 9, H[8], 10, H[10], "2026-01-01T00:00:00+00:00"))
    heads.stored(GAME, 10, H[10], ended=True)
    assert receipt.version == 10 and heads.alarm is None
    before = SIGNER_REFUSALS._value.get()
    with pytest.raises(EquivocationError) as refused:
        heads.sign(NewHead(GAME, 6, H[5], 8, "a" * 64, "2026-01-01T00:01:00+00:00"))
    assert refused.value.version == 6 and refused.value.game_id == GAME
    assert SIGNER_REFUSALS._value.get() == before + 1
    assert heads.alarm is not None and GAME in heads.alarm


def test_an_unwritable_data_dir_keeps_the_record_in_memory_and_moves_going(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    from services.storage.checkpoint_log import CheckpointLog

    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")  # as root, only this stops a write
    record = SignedHeadsFile.in_dir(blocked)
    heads = HeadSigner(lambda: Signer.generate(), record, CheckpointLog(blocked))
    heads.stored(GAME, 10, H[10], ended=True)  # the checkpoint cannot be written
    heads.stored(GAME, 12, H[12], ended=True)
    record.flush()
    assert record.unwritable and record.last(GAME) == SignedHead(GAME, 12, H[12])
    with pytest.raises(EquivocationError):
        heads.sign(NewHead(GAME, 11, H[10], 11, H[11], "2026-01-01T00:00:00+00:00"))
    said = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert sum("signer's record" in m for m in said) == 1
    assert sum("cannot write checkpoints" in m for m in said) == 1


def test_a_head_the_ledger_checked_itself_is_signed_without_a_second_look(
    tmp_path: Path,
):
    """Another process stores and records version 10 between the ledger's
    check and its signature: the write lost a race (its commit will find the
    version taken), so signing it raises no alarm."""
    shared = SignedHeadsFile.in_dir(tmp_path)
    other = HeadSigner(lambda: Signer.generate(), shared)
    other.stored(GAME, 10, H[10], ended=False)
    heads = HeadSigner(lambda: Signer.generate(), SignedHeadsFile.in_dir(tmp_path))
    shared.flush()
    late = NewHead(GAME, 10, H[9], 10, "b" * 64, "2026-01-01T00:00:00+00:00")
    receipt = heads.sign(late, checked=True)
    assert receipt.version == 10 and heads.alarm is None


def test_a_checkpoint_looks_only_at_the_games_that_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A game's end signs a checkpoint: its cost follows what changed since
    the last one, not how many games the record holds; a restarted process
    looks at every game once and adds no leaf the tree already has."""
    from services.storage.checkpoint_log import CheckpointLog

    asked: list[int] = []
    publish = CheckpointLog.publish

    def counted(self: CheckpointLog, heads: dict, signer: Signer, stamp: str) -> object:
        asked.append(len(heads))
        return publish(self, heads, signer, stamp)

    monkeypatch.setattr(CheckpointLog, "publish", counted)
    signer = Signer.generate()
    games = [f"6f1c5d0e-0000-4000-8000-{n:012d}" for n in range(40)]
    heads = HeadSigner(
        lambda: signer, SignedHeadsFile.in_dir(tmp_path), CheckpointLog(tmp_path)
    )
    for game in games:
        heads.stored(game, 1, H[1], ended=False)
    first = heads.checkpoint()
    heads.stored(games[7], 2, H[2], ended=True)
    second = heads.checkpoint()  # nothing changed since the game's end
    assert asked == [40, 1, 0]
    assert first is not None and second is not None
    assert second.tree_size == first.tree_size + 1
    restarted = HeadSigner(
        lambda: signer, SignedHeadsFile.in_dir(tmp_path), CheckpointLog(tmp_path)
    )
    again = restarted.checkpoint()
    assert asked[-1] == 40 and again == second  # every game once, no new leaf
