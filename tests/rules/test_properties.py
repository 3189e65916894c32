"""Property tests (hypothesis, modest example counts to keep the suite fast)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import CARD_SYMBOL, CARD_TEXT, format_cards, parse_cards
from rules.cli import main
from rules.judge import judge, judge_text
from rules.order import trump_from_text
from rules.record import FIELDS, RecordError
from rules.ruleset import PRESETS, Ruleset
from rules.simulate import simulate_deal

cards_st = st.lists(st.integers(0, 53), max_size=30)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(cards_st)
def test_canonical_text_round_trips(cards):
    assert sorted(parse_cards(format_cards(cards))) == sorted(cards)


@FAST
@given(cards_st, st.sampled_from(["2", "5", "T", "A"]), st.sampled_from(["S", "H", "NT"]))
def test_sorted_text_round_trips(cards, level, trump):
    t = trump_from_text(level, trump)
    text = format_cards(cards, t)
    assert sorted(parse_cards(text)) == sorted(cards)
    assert parse_cards(text) == tuple(t.sort(cards))


@FAST
@given(cards_st)
def test_symbol_and_lowercase_round_trip(cards):
    assert sorted(parse_cards(" ".join(CARD_SYMBOL[c] for c in cards))) == sorted(cards)
    assert sorted(parse_cards(", ".join(CARD_TEXT[c].lower() for c in cards))) == sorted(cards)


presets = st.sampled_from(list(PRESETS))  # all seven, one to four decks
levels = st.sampled_from(list("23456789TJQKA"))
seats = st.sampled_from(list("NWSE"))


@settings(max_examples=15, deadline=None)
@given(presets, seats, levels, st.integers(0, 10**6))
def test_every_simulated_deal_is_ok(preset, banker, level, seed):
    v = judge(simulate_deal(preset, banker=banker, level=level, seed=seed, throw_rate=0.3))
    assert v.ok, [x.as_dict() for x in v.violations]
    assert v.result is not None


def _revoke_candidates(deal):
    """(trick k, play index i, trick j, play index m, card c, card d): seat followed a single lead with c in
    the led suit and plays d (another effective suit) later in trick j — swapping them is a revoke at k."""
    rec_trump = Ruleset.from_spec(deal["ruleset"]).trump(deal["level"], deal["trump"])
    eff = rec_trump.eff
    tricks = [[(s, parse_cards(c)) for s, c in t["plays"]] for t in deal["tricks"]]
    out = []
    for k, plays in enumerate(tricks):
        lead = plays[0][1]
        if len(lead) != 1 or "throw" in deal["tricks"][k]:
            continue
        for i in range(1, 4):
            seat, (c,) = plays[i][0], plays[i][1] if len(plays[i][1]) == 1 else (None,)
            if c is None or eff[c] != eff[lead[0]]:
                continue
            for j in range(k + 1, len(tricks)):
                for m, (s2, cs) in enumerate(tricks[j]):
                    if s2 == seat and len(cs) == 1 and eff[cs[0]] != eff[lead[0]]:
                        out.append((k, i, j, m, c, cs[0]))
    return out


@settings(max_examples=15, deadline=None)
@given(presets, seats, levels, st.integers(0, 10**6), st.integers(0, 10**6))
def test_an_illegal_swap_is_caught_at_that_trick_and_seat(preset, banker, level, seed, pick):
    deal = simulate_deal(preset, banker=banker, level=level, seed=seed)
    cands = _revoke_candidates(deal)
    if not cands:
        return
    k, i, j, m, c, d = cands[pick % len(cands)]
    deal["tricks"][k]["plays"][i][1] = CARD_TEXT[d]
    deal["tricks"][j]["plays"][m][1] = CARD_TEXT[c]
    v = judge(deal)
    assert not v.ok
    first = v.violations[0]
    assert (first.trick, first.seat, first.code) == (k, deal["tricks"][k]["plays"][i][0], "revoke_suit")


json_st = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(FIELDS)), json_st, st.integers(0, 10**6))
def test_no_record_crashes_the_judge(field, value, seed):
    deal = simulate_deal("standard", banker="N", level="5", seed=seed % 50)
    deal["tricks"] = deal["tricks"][:3]
    deal[field] = value
    try:
        v = judge(deal)
    except RecordError as e:
        assert str(e)
    else:
        json.dumps(v.as_dict(), ensure_ascii=False)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=200) | json_st.map(json.dumps))
def test_no_text_crashes_judge_text(text):
    try:
        judge_text(text)
    except RecordError:
        pass


@settings(max_examples=15, deadline=None)
@given(st.binary(max_size=100))
def test_no_bytes_crash_the_cli(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cli") / "in.json"
    path.write_bytes(data)
    assert main(["judge", str(path)]) in (0, 1, 2)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(list("NWSEX")), st.text(alphabet="SHCDAKQJT1023456789 ,♠", max_size=12)),
        max_size=5,
    )
)
def test_no_plays_crash_the_judge(plays):
    rec = {
        "format": "tractor-deal/1",
        "banker": "N",
        "level": "5",
        "trump": "H",
        "partial": True,
        "tricks": [{"plays": [list(p) for p in plays]}],
    }
    try:
        judge(rec)
    except RecordError:
        pass


@settings(max_examples=20, deadline=None)
@given(presets, seats, levels, st.integers(0, 10**6), st.integers(1, 30), st.integers(0, 4), st.booleans())
def test_every_prefix_of_a_legal_deal_is_ok_live(preset, banker, level, seed, n_tricks, n_plays, partial):
    """The site judges the deal so far after every play: a legal deal must never be flagged on the way."""
    deal = simulate_deal(preset, banker=banker, level=level, seed=seed, throw_rate=0.3)
    deal["tricks"] = deal["tricks"][:n_tricks]
    if n_plays:
        deal["tricks"][-1]["plays"] = deal["tricks"][-1]["plays"][:n_plays]
    deal["partial"] = partial
    v = judge(deal, live=True)
    assert v.ok, [x.as_dict() for x in v.violations]
    if n_plays and n_plays < 4:
        assert v.result is None
