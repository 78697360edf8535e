"""The README's sample ``ledger serve`` output has every line the banner prints."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parents[2]


def labels(text: str) -> list[str]:
    """The banner's row names (``data dir``, ``dashboard``...), in order."""
    return re.findall(r"^  (\w[\w ]*?) {2,}", text, re.MULTILINE)


def test_the_readme_sample_shows_each_banner_line(tmp_path: Path) -> None:
    from services.cli import banner
    from services.cli.root import console
    from services.runtime.settings import Settings

    settings = Settings(
        data_dir=tmp_path, database_url=None, admin_token=SecretStr("t" * 32)
    )
    wiring = SimpleNamespace(settings=settings, database_url=None)
    with console.capture() as printed:
        banner.ready(wiring, "127.0.0.1:50051", tmp_path / "server.json")  # type: ignore[arg-type]
    readme = (ROOT / "README.md").read_text()
    sample = readme.split("$ ledger serve\n", 1)[1].split("```", 1)[0]
    assert labels(printed.get()) == labels(sample)
    assert "dashboard" in labels(sample)
