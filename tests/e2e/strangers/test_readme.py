"""Every code block in README.md and docs/*.md runs, as written, against a real server.

The server (``fresh_server``) is already listening when the blocks run, with
the ``LEDGER_*`` settings of its database in the environment, so the CLI
commands reach the same ledger a reader's would; ``127.0.0.1:50051`` in a
block is replaced by its address (the only edit).  A block's line ``ledger
serve &`` then finds the port taken and exits on its own, in the block's
process group, which is killed after the block.  One test per page: its
blocks run in file order in a scratch directory of the page's own, each with
``bash -e -o pipefail`` or the test's Python (pytest-randomly may reorder
the pages, never the blocks of one page).  The rules for the pages' authors
are in ``readme_blocks.py``.
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

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = {
    str(page.relative_to(ROOT)): blocks(page, str(page.relative_to(ROOT)))
    for page in PAGES
}
DEFAULT_ADDRESS = "127.0.0.1:50051"


def test_every_block_is_runnable_or_marked_illustrative():
    assert BLOCKS["README.md"], "README.md has no code blocks?"
    for block in (b for page in BLOCKS.values() for b in page):
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


RUN = {
    page: [b for b in found if b.lang in RUNNABLE and not b.installs]
    for page, found in BLOCKS.items()
}
RUN = {page: run for page, run in RUN.items() if run}


def test_the_readme_has_runnable_blocks_and_only_install_blocks_are_not_run():
    assert len(RUN["README.md"]) >= 2
    left_out = [
        b for page in BLOCKS.values() for b in page if b.lang in RUNNABLE and b.installs
    ]
    assert all(b.code.lstrip().startswith("python3 -m venv") for b in left_out), (
        "a block that installs must be only the install (then its commands)"
    )


def test_the_readme_keeps_the_install_and_test_commands_ci_runs():
    """``.ci/run`` installs and tests exactly as the README says."""
    commands = [b.code.strip() for b in BLOCKS["README.md"] if b.installs]
    assert (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && pytest"
        in commands
    )
    assert any(c.endswith("pip install -e . && ledger serve") for c in commands)


@pytest.mark.parametrize("page", sorted(RUN))
def test_page_runs_as_written(page, fresh_server, tmp_path):
    for block in RUN[page]:
        done = _run(block, fresh_server, tmp_path)
        assert done.returncode == 0, (
            f"{block.name} failed:\n{block.code}\n{done.stdout}"
        )
