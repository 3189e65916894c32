"""Where the browser tests' pictures go: the repository's ignored ``test-output/screenshots/<folder>/``, and only
when asked (``SCREENSHOTS=1``). A full-page picture costs a browser a fraction of a second; the suite takes
hundreds, so a run that nobody looks at takes none."""

from __future__ import annotations

import os
from pathlib import Path

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
WANTED = os.environ.get("SCREENSHOTS") == "1"


def folder(name: str) -> Path:
    """The folder of one module's pictures (made when the first picture is saved)."""
    return OUTPUT / name


def save(target, path: Path, **options) -> None:
    """Save ``target``'s picture (a page or a locator) at ``path`` when pictures are asked for."""
    if WANTED:
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(path), **options)
