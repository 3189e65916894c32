"""The backups' tests write under the repository's ignored ``test-output/backup/`` (one folder a test)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

OUTPUT = Path(__file__).resolve().parent.parent.parent / "test-output" / "backup"


@pytest.fixture
def out(request, settings) -> Path:
    """A fresh folder of the test's own, BACKUP_DIR while it runs."""
    folder = OUTPUT / request.node.name.replace("/", "_")[:80]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    settings.BACKUP_DIR = folder
    return folder
