"""No module of the repository runs over 500 lines: one job per module, small enough to hold at once.

Decisions: every Python file below the repository counts, the tests and tools too, except what is not the
repository's own (hidden folders such as ``.venv``, and the ignored ``staticfiles/``, ``test-output/`` and
``*.egg-info``) and Django's migrations: a migration is written by ``makemigrations``, its operations are the
history of every database already made, and splitting one would change that history, not the code anyone reads.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 500
NOT_OURS = {"staticfiles", "test-output", "__pycache__", "node_modules"}


def modules(root: Path) -> list[Path]:
    """The repository's own Python files, migrations left out."""
    found = []
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts[:-1]
        if any(p.startswith(".") or p in NOT_OURS or p.endswith(".egg-info") for p in parts):
            continue
        if "migrations" in parts:
            continue
        found.append(path)
    return sorted(found)


def too_long(root: Path, most: int = MOST_LINES) -> list[str]:
    """Each module over ``most`` lines, with its length."""
    lengths = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in modules(root)}
    return [f"{path.relative_to(root)}: {n} lines" for path, n in lengths.items() if n > most]


def test_no_module_of_the_repository_runs_over_500_lines():
    found = too_long(ROOT)
    assert not found, f"split these modules by job (at most {MOST_LINES} lines each):\n" + "\n".join(found)


def test_the_check_finds_a_long_module_and_leaves_out_migrations_and_hidden_folders(tmp_path):
    lines = "x = 1\n" * 6
    for name in ("app/long.py", "app/migrations/0001_long.py", ".venv/lib/long.py", "short.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(lines if "short" not in name else "x = 1\n", encoding="utf-8")
    assert too_long(tmp_path, most=5) == ["app/long.py: 6 lines"]
    assert [p.name for p in modules(tmp_path)] == ["long.py", "short.py"]
