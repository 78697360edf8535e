"""The API's compatibility promise, checked by buf (pinned in tools/buf/package.json).

``buf lint`` holds protos/ to buf's STANDARD rules (less the published names
buf.yaml lists), and ``buf breaking`` compares protos/ with the previous
release's (``PREVIOUS``, taken from git): a removed, renumbered, renamed or
retyped field, message, enum value or RPC fails; additions pass.  The last
tests break a copy on purpose and watch buf refuse it, so a check that
accepts everything would fail here.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / "tools" / "buf" / "node_modules" / ".bin" / "buf"
PREVIOUS = "b04c540"
"""The release whose clients must keep working (docs/clients.md, "Compatibility")."""


@pytest.fixture(scope="module")
def buf() -> Path:
    if not BUF.exists():
        pytest.fail("buf is not installed: run `npm ci` in tools/buf (.ci/run does)")
    return BUF


def run(buf: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(buf), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The previous release's protos/, as a buf input."""
    archive = tmp_path_factory.mktemp("previous") / "protos.tar"
    subprocess.run(
        ["git", "archive", "-o", str(archive), PREVIOUS, "protos"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return f"{archive}#subdir=protos"


def test_the_protos_pass_buf_lint(buf):
    result = run(buf, ROOT, "lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_protos_break_nothing_of_the_previous_release(buf, previous):
    result = run(buf, ROOT, "breaking", "protos", "--against", previous)
    assert result.returncode == 0, result.stdout + result.stderr


GET_GAME = "message GetGameRequest {\n  string game_id = 1;\n"
CHANGES = {
    "renumbered": (GET_GAME, GET_GAME.replace("= 1;", "= 151;"), "game_id"),
    "removed": ("  optional int64 at_version = 2;\n", "", "at_version"),
    "retyped": (GET_GAME, GET_GAME.replace("string", "bytes"), "game_id"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_field_changed_incompatibly_fails_buf_breaking(buf, tmp_path, change):
    old, new, field = CHANGES[change]
    current = tmp_path / "current.tar"
    with tarfile.open(current, "w") as tar:
        tar.add(ROOT / "protos", arcname="protos")
    shutil.copytree(ROOT / "protos", tmp_path / "protos")
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    proto = tmp_path / "protos" / "ledger" / "v1" / "game_service.proto"
    text = proto.read_text()
    assert text.count(old) == 1
    proto.write_text(text.replace(old, new))
    result = run(
        buf, tmp_path, "breaking", "protos", "--against", f"{current}#subdir=protos"
    )
    assert result.returncode != 0
    assert field in result.stdout, result.stdout + result.stderr
