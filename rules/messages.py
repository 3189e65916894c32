"""Bilingual violation messages (English and the Chinese a tournament judge would say).

Cards are shown with suit symbols, identical cards grouped (``♠QQ``, ``♠3 ♠7``), high to low.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_SYMBOL, Card
from .order import Trump

# Effective suits 0–3 and TRUMP (4), as a judge names them.
SUIT_NAMES_EN = ("spades", "hearts", "clubs", "diamonds", "trumps")
SUIT_NAMES_ZH = ("黑桃", "红桃", "梅花", "方块", "主牌")


def show(cards: Sequence[Card], trump: Trump | None = None) -> str:
    """Cards for a message: ``♠QQ ♠3 大王``."""
    cs = trump.sort(cards) if trump is not None else sorted(cards, reverse=True)
    parts: list[str] = []
    prev = None
    for c in cs:
        text = CARD_SYMBOL[c]
        if c == prev and c < 52:
            parts[-1] += text[1:]
        elif c == prev:
            parts[-1] += text
        else:
            parts.append(text)
        prev = c
    return " ".join(parts) if parts else "—"


_TEMPLATES: dict[str, tuple[str, str]] = {
    "not_held": (
        "{seat} played {cards} without holding {missing}",
        "{seat}并未持有 {missing}，却打出了 {cards}",
    ),
    "deck_count": (
        "the deal uses {card} {n} times instead of {decks}",
        "整局牌中 {card} 出现 {n} 次，应为 {decks} 次",
    ),
    "card_count": (
        "{seat} has {n} cards instead of {expected}",
        "{seat}多牌少牌：共 {n} 张，应为 {expected} 张",
    ),
    "kitty_count": ("the kitty has {n} cards instead of {expected}", "底牌 {n} 张，应为 {expected} 张"),
    "mixed_lead": ("{seat} led {cards}, which mixes suits", "{seat}首出 {cards}，混出了不同花色"),
    "trump_throw": (
        "{seat} threw trumps {cards}; this ruleset forbids trump throws",
        "本规则不许甩主牌，{seat}却甩出 {cards}",
    ),
    "wrong_leader": ("{seat} led, but {expected} should have", "应由{expected}首出，却由{seat}出牌"),
    "wrong_order": (
        "{seat} played out of turn ({expected} was due)",
        "出牌顺序错误：应由{expected}出牌，却由{seat}出牌",
    ),
    "play_size": ("{seat} played {n} cards to a lead of {m}", "{seat}出了 {n} 张牌，首家出的是 {m} 张"),
    "revoke_suit": (
        "{seat} held {witness} but did not follow {suit}, playing {cards}",
        "{seat}持有 {witness}，却没有跟出{suit_zh}，打出 {cards}",
    ),
    "revoke_pair": (
        "{seat} held {witness} but followed the {kind} lead with {cards}",
        "{seat}持有 {witness}，却用 {cards} 跟{kind_zh}",
    ),
    "revoke_tractor": (
        "{seat} held the {held} {witness} but followed the {kind} lead with {cards}",
        "{seat}持有{held_zh} {witness}，却用 {cards} 跟{kind_zh}",
    ),
    "throw_should_fail": (
        "{seat}'s throw {cards} should have failed: {holder} held {beater}",
        "{seat}甩牌 {cards} 应当失败：{holder}持有 {beater}",
    ),
    "bad_challenge": (
        "{challenger}'s challenge of {seat}'s throw {attempted} does not hold: {why}",
        "{challenger}对 {seat}甩牌 {attempted} 的否决不成立：{why_zh}",
    ),
    "wrong_forced_unit": (
        "{seat}'s failed throw {attempted} must be played as {forced}, not {cards}",
        "{seat}甩牌 {attempted} 失败，应出 {forced}，却出了 {cards}",
    ),
    "incomplete_deal": (
        "incomplete deal: the record is not marked partial but stops after trick {n}, with {left} cards never played",
        "记录未标为部分记录，却在第 {n} 轮后中止：还有 {left} 张牌未出",
    ),
    "incomplete_trick": (
        "trick {n} (counting from 1) has only {k} plays, but later tricks follow",
        "第 {n} 轮只有 {k} 家出牌，之后却还有出牌",
    ),
}

# Why a challenge of a throw does not hold (the ``why`` of ``bad_challenge``).
_CHALLENGE_REASONS: dict[str, tuple[str, str]] = {
    "single_unit": ("the attempt is a single unit, not a throw", "所出的牌只是一个牌型，不是甩牌"),
    "own_throw": ("the thrower cannot challenge their own throw", "甩牌者不能否决自己的甩牌"),
    "not_held": ("{challenger} did not hold {shown}", "{challenger} 并未持有 {shown}"),
    "no_beat": ("{shown} does not beat any unit of the throw", "{shown} 大不过甩牌中的任何一个牌型"),
}

KIND_ZH = {
    "single": "单张",
    "pair": "对子",
    "tractor": "拖拉机",
    "triple": "三张",
    "quad": "四张",
    "titanic": "泰坦尼克",
    "bulldozer": "推土机",
    "bomb": "炸弹",
    "throw": "甩牌",
}
# English names of the kinds (RULES §13.1): the verdict's ``lead_shape`` codes read as words.
KIND_EN = {
    "titanic": "Titanic (chain of triples)",
    "bulldozer": "bulldozer (chain of sets)",
    "bomb": "bomb",
}
SEAT_ZH = {"N": "北家", "W": "西家", "S": "南家", "E": "东家"}
SEAT_KEYS = ("seat", "expected", "holder", "challenger")


def kind_name(kind: str) -> tuple[str, str]:
    """(English, Chinese) name of a unit kind or lead shape (a verdict's ``lead_shape``): ``quad`` → 四张."""
    return KIND_EN.get(kind, kind), KIND_ZH.get(kind, kind)


def suit_names(suit: int) -> tuple[str, str]:
    """(English, Chinese) name of an effective suit."""
    return SUIT_NAMES_EN[suit], SUIT_NAMES_ZH[suit]


def challenge_reason(reason: str, **kw: object) -> tuple[str, str]:
    """(English, Chinese) reason a challenge does not hold; seats stay as written (N, E …) in both."""
    en, zh = _CHALLENGE_REASONS[reason]
    return en.format(**kw), zh.format(**kw)


def message(code: str, **kw: object) -> tuple[str, str]:
    """(English, Chinese) for a violation code with its parameters."""
    en, zh = _TEMPLATES[code]
    kw = dict(kw)
    for key in ("kind", "held"):
        if key in kw:
            name_en, name_zh = kind_name(str(kw[key]))
            kw.setdefault(f"{key}_zh", name_zh)
            kw[key] = name_en
    # Judges say 东家, not E: seats are named in Chinese in the Chinese message.
    kw_zh = {k: SEAT_ZH.get(str(v), v) if k in SEAT_KEYS else v for k, v in kw.items()}
    return en.format(**kw), zh.format(**kw_zh)
