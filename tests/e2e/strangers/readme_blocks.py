"""The fenced code blocks of a Markdown page, and how the docs test treats each.

Kept generic on purpose: a block added to README.md or to any ``docs/*.md``
page is run without touching the test.  The contract, also stated in the
test:

- ```sh / ```python blocks are run, in file order within their page, exactly
  as written; the only change is the address ``127.0.0.1:50051``, replaced
  by the test server's.  Pages run in any order, each in a scratch directory
  of its own, so a page's blocks must not rely on another page's (a page
  that reads a finished game plays one first).
- ```text blocks (output, templates with placeholders) are not run.
- Install blocks (``pip install``) are not run: the test suite itself runs
  from that install (and ``.ci/run`` performs it in a fresh venv); running
  it here would reinstall the package under test and start the whole suite
  or a server that never returns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RUNNABLE = ("sh", "python")
ILLUSTRATIVE = ("text",)
_FENCE = re.compile(r"^```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    lang: str
    code: str
    line: int
    """1-based line of the opening fence."""
    page: str = "README.md"
    """The page's path from the repository root."""

    @property
    def installs(self) -> bool:
        """An install block (see the module docstring): not run."""
        return "pip install" in self.code

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}:{self.lang}"


def blocks(path: Path, page: str | None = None) -> list[Block]:
    """Every fenced block of ``path``, in order; ``page`` names it in test ids.

    :raises ValueError: an unterminated fence.
    """
    lines = path.read_text().splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            i += 1
            continue
        start = i
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            i += 1
        if i == len(lines):
            raise ValueError(f"{path.name}:{start + 1}: unterminated code block")
        out.append(
            Block(
                lang=fence.group(1),
                code="\n".join(lines[start + 1 : i]) + "\n",
                line=start + 1,
                page=page or path.name,
            )
        )
        i += 1
    return out
