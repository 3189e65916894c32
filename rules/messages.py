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


# A refused ruleset (``RulesetError.code``): the engine's own wording, in English (``str(error)``, what the command
# line prints) and Chinese. ``{setting!r}`` is the setting named; the site words the codes from its own catalogue.
_RULESET: dict[str, tuple[str, str]] = {
    "level_off_ladder": (
        "level {level!r} is not on the ladder {ladder}",
        "级别 {level!r} 不在级别阶梯 {ladder} 上",
    ),
    "unknown_preset": (
        "unknown preset {preset!r} (known: {known})",
        "未知的预设 {preset!r}（可选：{known}）",
    ),
    "not_a_ruleset": (
        "a ruleset is a preset name or an object, not {type}",
        "规则应为预设名或对象，而不是 {type}",
    ),
    "unknown_setting": ("unknown ruleset setting {key!r}", "未知的规则设置 {key!r}"),
    "out_of_range": (
        "setting {setting!r} is out of range (at most {max})",
        "设置 {setting!r} 超出范围（至多 {max}）",
    ),
    "decks_too_few": (
        "setting {setting!r} must be at least 1, not {decks}",
        "设置 {setting!r} 至少为 1，而不是 {decks}",
    ),
    "decks_too_many": (
        "setting {setting!r}: {decks} decks (the rules cover 1 to {max})",
        "设置 {setting!r}：{decks} 副牌（规则只涵盖 1 至 {max} 副）",
    ),
    "kitty_unshared": (
        "setting {setting!r}: {kitty} cards leave {left}, which four hands cannot share",
        "设置 {setting!r}：底牌 {kitty} 张，余下 {left} 张，四家无法均分",
    ),
    "kitty_no_hand": (
        "setting {setting!r}: {kitty} cards leave no hand to play from {decks} decks",
        "设置 {setting!r}：{decks} 副牌留底 {kitty} 张后，各家无牌可打",
    ),
    "follow_lead_too_large": (
        "setting {setting!r}: a lead {kind!r} needs sets of {n}, which {decks} decks cannot form",
        "设置 {setting!r}：首出 {kind!r} 需要 {n} 张同牌，{decks} 副牌组不成",
    ),
    "ladder_short": (
        "setting {setting!r} needs two or more distinct ranks, not {ladder}",
        "设置 {setting!r} 需要两个以上不同的级别，而不是 {ladder}",
    ),
    "ladder_order": (
        "setting {setting!r} must climb in rank order, not {ladder}",
        "设置 {setting!r} 须按牌点由低到高排列，而不是 {ladder}",
    ),
    "level_not_on_ladder": (
        "setting {setting!r}: {level!r} is not on the ladder {ladder}",
        "设置 {setting!r}：{level!r} 不在级别阶梯 {ladder} 上",
    ),
    "target_not_above": (
        "setting {setting!r} {target!r} must be above {start!r}",
        "设置 {setting!r} {target!r} 须高于 {start!r}",
    ),
    "must_play_off_ladder": (
        "setting {setting!r}: {level!r} is not on the ladder {ladder}",
        "设置 {setting!r}：{level!r} 不在级别阶梯 {ladder} 上",
    ),
    "twos_on_ladder": (
        "setting {setting!r} needs a ladder that does not play level 2",
        "设置 {setting!r} 要求级别阶梯不打 2",
    ),
    "not_positive": (
        "setting {setting!r} must be positive, not {value}",
        "设置 {setting!r} 须为正数，而不是 {value}",
    ),
    "kitty_table_incomplete": (
        "setting {setting!r} lacks kind {kind!r} (kitty_scheme 'table')",
        "设置 {setting!r} 缺少牌型 {kind!r}（kitty_scheme 'table'）",
    ),
    "kitty_table_multiplier": (
        "setting {setting!r}: multipliers must be positive",
        "设置 {setting!r}：倍数须为正数",
    ),
    "bands_first": (
        "setting {setting!r}: the first band must have from: null (no lower bound)",
        "设置 {setting!r}：第一档须为 from: null（无下限）",
    ),
    "bands_rise": (
        "setting {setting!r}: bands must rise strictly by 'from'",
        "设置 {setting!r}：各档的 'from' 须严格递增",
    ),
    "bands_levels": (
        "setting {setting!r}: levels must be ≥ 0 and every ≥ 1",
        "设置 {setting!r}：升级数须 ≥ 0，every 须 ≥ 1",
    ),
    "bands_every": (
        "setting {setting!r}: only the last band may have 'every'",
        "设置 {setting!r}：只有最后一档可以有 'every'",
    ),
    "bands_order": (
        "setting {setting!r}: more points must never help the banker side",
        "设置 {setting!r}：分数越多，越不能对庄家有利",
    ),
    "not_positive_or_null": (
        "setting {setting!r} must be positive or null, not {value}",
        "设置 {setting!r} 须为正数或 null，而不是 {value}",
    ),
    "negative": ("setting {setting!r} must not be negative", "设置 {setting!r} 不能为负数"),
    "unknown_rank": ("setting {setting!r}: unknown rank {value!r}", "设置 {setting!r}：未知的牌点 {value!r}"),
    "not_integer": (
        "setting {setting!r} must be an integer, not {value!r}",
        "设置 {setting!r} 须为整数，而不是 {value!r}",
    ),
    "not_boolean": (
        "setting {setting!r} must be true or false, not {value!r}",
        "设置 {setting!r} 须为 true 或 false，而不是 {value!r}",
    ),
    "unknown_choice": (
        "setting {setting!r}: unknown value {value!r} (known: {known})",
        "设置 {setting!r}：未知的值 {value!r}（可选：{known}）",
    ),
    "not_rank_list": (
        "setting {setting!r} must be a list of ranks, not {value!r}",
        "设置 {setting!r} 须为牌点列表，而不是 {value!r}",
    ),
    "kitty_table_not_object": (
        "setting {setting!r} must be an object kind → multiplier, not {value!r}",
        "设置 {setting!r} 须为“牌型 → 倍数”的对象，而不是 {value!r}",
    ),
    "kitty_table_kind": (
        "setting {setting!r}: unknown kind {kind!r} (single, pair, tractor, tractor:N)",
        "设置 {setting!r}：未知的牌型 {kind!r}（single, pair, tractor, tractor:N）",
    ),
    "bands_not_list": (
        "setting {setting!r} must be a list of bands, not {value!r}",
        "设置 {setting!r} 须为分档列表，而不是 {value!r}",
    ),
    "follow_not_object": (
        "setting {setting!r} must be an object lead kind → lines, not {value!r}",
        "设置 {setting!r} 须为“首出牌型 → 跟牌顺序”的对象，而不是 {value!r}",
    ),
    "follow_lead_kind": (
        "setting {setting!r}: unknown lead kind {kind!r} (like 3x1, 3x2, 4x*)",
        "设置 {setting!r}：未知的首出牌型 {kind!r}（如 3x1、3x2、4x*）",
    ),
    "follow_no_lines": (
        "setting {setting!r}: {kind!r} needs a list of lines",
        "设置 {setting!r}：{kind!r} 需要跟牌顺序列表",
    ),
    "follow_line": (
        "setting {setting!r}: a line of {kind!r} is a list of units, not {line!r}",
        "设置 {setting!r}：{kind!r} 的每一行是牌组列表，而不是 {line!r}",
    ),
    "follow_unit": (
        "setting {setting!r}: unknown unit {item!r} in {kind!r}",
        "设置 {setting!r}：{kind!r} 中有未知的牌组 {item!r}",
    ),
    "band_not_object": (
        "setting {setting!r}: a band is an object, not {value!r}",
        "设置 {setting!r}：每一档是一个对象，而不是 {value!r}",
    ),
    "band_field": (
        "setting {setting!r}: unknown band field {field!r}",
        "设置 {setting!r}：未知的分档字段 {field!r}",
    ),
    "band_side": (
        "setting {setting!r}: side must be 'banker' or 'attackers', not {value!r}",
        "设置 {setting!r}：side 须为 'banker' 或 'attackers'，而不是 {value!r}",
    ),
}
RULESET_CODES: tuple[str, ...] = tuple(_RULESET)


def ruleset_message(code: str, **values: object) -> tuple[str, str]:
    """(English, Chinese) for a refused ruleset's code and its values (``setting`` among them)."""
    en, zh = _RULESET[code]
    return en.format(**values), zh.format(**values)
