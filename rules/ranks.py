"""Ranks and their canonical text (RULES §2): ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""

from __future__ import annotations

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}


# How players say a rank: ``T`` is written 10 on every screen and sheet.
RANK_TEXT: dict[str, str] = {r: ("10" if r == "T" else r) for r in RANKS}


def rank_text(rank: str | None) -> str:
    """A rank or level as players say it (``T`` → ``10``)."""
    return RANK_TEXT.get(rank or "", rank or "")


def parse_rank(text: str) -> str:
    """Canonical rank for tolerant input (``10`` → ``T``, lower case); ValueError names a bad one."""
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if t not in RANK_INDEX:
        raise ValueError(f"unknown rank {text!r}")
    return t
