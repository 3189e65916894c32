"""The simulator: deterministic, complete, legal records (with throws and challenges)."""

from rules.cards import parse_cards
from rules.judge import judge
from rules.record import parse_record
from rules.simulate import simulate_deal


def test_same_seed_same_deal_other_seed_other_deal():
    a = simulate_deal("standard", banker="W", level="9", seed=42)
    b = simulate_deal("standard", banker="W", level="9", seed=42)
    c = simulate_deal("standard", banker="W", level="9", seed=43)
    assert a == b and a != c


def test_simulated_record_is_complete_and_legal():
    d = simulate_deal("permanent-twos", banker="S", level="3", trump="NT", seed=1)
    rec = parse_record(d)
    assert rec.trump.trump is None and rec.banker == "S"
    assert len(parse_cards(d["kitty"])) == 8
    assert sum(len(parse_cards(c)) for t in d["tricks"] for _s, c in t["plays"]) == 100
    assert d["tricks"][0]["plays"][0][0] == "S"
    assert judge(d).ok


def test_random_trump_and_throws_with_challenges():
    deals = [simulate_deal("standard", banker="N", level="2", seed=s, throw_rate=0.5) for s in range(12)]
    assert len({d["trump"] for d in deals}) > 1
    throws = [t["throw"] for d in deals for t in d["tricks"] if "throw" in t]
    assert throws, "some throws should fail and be challenged"
    assert all(judge(d).ok for d in deals)
    assert any(t.lead_shape == "throw" for d in deals for t in judge(d).tricks), "some throws should stand"


def test_only_an_opponent_of_the_thrower_challenges():
    """At the table only an opponent challenges a throw: the simulator never names the thrower's partner."""
    from rules.seats import side_of

    deals = [simulate_deal("standard", banker="N", level="2", seed=s, throw_rate=0.5) for s in range(40)]
    tricks = [t for d in deals for t in d["tricks"] if "throw" in t]
    assert len(tricks) > 20
    assert all(side_of(t["throw"]["challenger"]) != side_of(t["plays"][0][0]) for t in tricks)
    assert all(judge(d).ok for d in deals)


def test_no_trump_throws_when_forbidden():
    spec = {"preset": "standard", "trump_throws": False}
    for s in range(6):
        d = simulate_deal(spec, banker="E", level="5", seed=s, throw_rate=0.6)
        v = judge(d)
        assert v.ok, [x.code for x in v.violations]
