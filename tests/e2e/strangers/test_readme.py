"""Every code block in README.md runs, as written, against a real server.

The server (``fresh_server``) is already listening when the blocks run, with
the ``LEDGER_*`` settings of its database in the environment, so the CLI
commands reach the same ledger a reader's would; ``127.0.0.1:50051`` in a
block is replaced by its address (the only edit).  A block's line ``ledger
serve &`` then finds the port taken and exits on its own, in the block's
process group, which is killed after the block.  Blocks run in file order in
one scratch directory, each with ``bash -e -o pipefail`` or the test's Python.
The rules for the README's authors are in ``readme_blocks.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.strangers.readme_blocks import ILLUSTRATIVE, RUNNABLE, blocks

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[3] / "README.md"
BLOCKS = blocks(README)
DEFAULT_ADDRESS = "127.0.0.1:50051"


def test_every_block_is_runnable_or_marked_illustrative():
    assert BLOCKS, "README.md has no code blocks?"
    for block in BLOCKS:
        assert block.lang in RUNNABLE + ILLUSTRATIVE, (
            f"{block.name}: tag it sh or python (run by the tests) or text (not run)"
        )


def _run(block, fresh_server, workdir: Path) -> subprocess.CompletedProcess[str]:
    code = block.code.replace(DEFAULT_ADDRESS, fresh_server.target)
    bindir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        **fresh_server.env,
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "120",
    }
    if block.lang == "python":
        argv = [sys.executable, "-c", code]
    else:
        argv = ["bash", "-e", "-o", "pipefail", "-c", code]
    proc = subprocess.Popen(
        argv,
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=180)
    finally:
        try:  # anything the block left running in the background
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(argv, proc.returncode, out)


RUN = [b for b in BLOCKS if b.lang in RUNNABLE and not b.installs]


def test_the_readme_has_runnable_blocks_and_only_install_blocks_are_not_run():
    assert len(RUN) >= 3
    left_out = [b for b in BLOCKS if b.lang in RUNNABLE and b.installs]
    assert all(b.code.lstrip().startswith("python3 -m venv") for b in left_out), (
        "a block that installs must be only the install (then its commands)"
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("readme")


@pytest.mark.parametrize("block", RUN, ids=[b.name for b in RUN])
def test_block_runs_as_written(block, fresh_server, workdir):
    done = _run(block, fresh_server, workdir)
    assert done.returncode == 0, f"{block.name} failed:\n{block.code}\n{done.stdout}"
