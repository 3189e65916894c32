"""The modules run at the head of the run (``tests/conftest.py``, ``AT_THE_HEAD``): each still exists and still
builds a scene once a module, so a renamed module is not silently left to the stealing, and none is listed for
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import AT_THE_HEAD

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", AT_THE_HEAD)
def test_each_module_at_the_head_exists_and_builds_a_scene_once_a_module(path):
    source = (ROOT / path).read_text(encoding="utf-8")
    assert '@pytest.fixture(scope="module")' in source, path
