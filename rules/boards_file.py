"""The boards file ``tractor-boards/1`` (DEAL-RECORD "Boards"): written, read and verified.

Reading refuses an unknown ``format`` or field, a card the notation cannot read, a board whose cards are not
each there ``decks`` times, and a fingerprint that is not the board's — naming the board, so a director who
imports a federation's file learns which board was altered. With a published seed, every board is also dealt
again and compared (hands, kitty, level, banker, drawn suit).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .boards import Board, BoardError, check_seed, deal_board, parse_board, same_deal

FORMAT = "tractor-boards/1"
MAX_BOARDS = 999


@dataclass(frozen=True, slots=True)
class BoardsFile:
    """A session's boards: the event's name, the seed (None until the session is over) and the boards."""

    event: str
    seed: str | None
    boards: tuple[Board, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "event": self.event,
            "seed": self.seed,
            "boards": [b.as_dict() for b in self.boards],
        }

    def dumps(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=1)


def read_boards(obj: object) -> BoardsFile:
    """A verified boards file from its JSON object; ``BoardError`` names the board at fault."""
    if not isinstance(obj, Mapping):
        raise BoardError("a boards file is a JSON object")
    if obj.get("format") != FORMAT:
        raise BoardError(f"not a boards file: the format must be {FORMAT}")
    unknown = sorted(set(obj) - {"format", "event", "seed", "boards"})
    if unknown:
        raise BoardError(f"unknown field {unknown[0]!r}")
    event = obj.get("event", "")
    if not isinstance(event, str) or len(event) > 200:
        raise BoardError("the event's name is text of at most 200 characters")
    seed = obj.get("seed")
    if seed is not None:
        check_seed(seed)
    raw = obj.get("boards")
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not 1 <= len(raw) <= MAX_BOARDS:
        raise BoardError(f"boards must be a list of 1 to {MAX_BOARDS} boards")
    boards = tuple(parse_board(b, f"board #{i + 1}") for i, b in enumerate(raw))
    seen: set[int] = set()
    for board, item in zip(boards, raw, strict=True):
        if board.number in seen:
            raise BoardError(f"board {board.number} is there twice", board.number)
        seen.add(board.number)
        if item["fingerprint"] != board.fingerprint:
            raise BoardError(f"board {board.number}: the fingerprint is not the board's", board.number)
        if seed is not None and not same_deal(board, deal_board(seed, board.number, board.ruleset)):
            raise BoardError(f"board {board.number} is not the deal of the published seed", board.number)
    return BoardsFile(event, seed, boards)


def loads_boards(text: str) -> BoardsFile:
    """A verified boards file from its text."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise BoardError(f"not JSON: {e.msg if hasattr(e, 'msg') else e}") from None
    return read_boards(obj)


def verify_seed(seed: str, boards: Sequence[Board]) -> list[int]:
    """The numbers of the boards that are not the deals of ``seed`` (empty: every board checks)."""
    check_seed(seed)
    return [b.number for b in boards if not same_deal(b, deal_board(seed, b.number, b.ruleset))]
