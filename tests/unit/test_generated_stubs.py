"""The committed stubs are exactly what protoc generates from protos/ (CI guard)."""

from __future__ import annotations

from pathlib import Path

from services.protogen import ROOT, generate, proto_files


def test_regenerating_the_stubs_changes_nothing(tmp_path: Path):
    generate(tmp_path)
    generated = sorted(
        p.relative_to(tmp_path) for p in (tmp_path / "ledger" / "v1").glob("*_pb2*")
    )
    assert len(generated) == 3 * len(proto_files())
    committed = sorted(
        p.relative_to(ROOT) for p in (ROOT / "ledger" / "v1").glob("*_pb2*")
    )
    assert generated == committed, (
        "stubs missing or extra: run python -m services.protogen"
    )
    stale = [
        str(p)
        for p in generated
        if (tmp_path / p).read_bytes() != (ROOT / p).read_bytes()
    ]
    assert not stale, f"stale stubs {stale}: run python -m services.protogen and commit"
