"""A 64-pair, 9-round event's public pages stay a sensible weight: results one round at a time, the tournament
page one round's matches, each under 60 KB of HTML; the other rounds a link away."""

from __future__ import annotations

from django.urls import reverse

from tools.bench.desk import build_event

LIMIT = 60 * 1024


def test_the_public_pages_of_a_64_pair_9_round_event_weigh_under_60_kb(client, db):
    event = build_event(64, 9, 64 * 9 // 2 * 6)
    pair = event.pairs.first()
    pages = {
        "tournament": reverse("tournament", args=[event.slug]),
        "results": reverse("results", args=[event.slug]),
        "results of round 3": reverse("results", args=[event.slug]) + "?round=3",
        "standings": reverse("standings", args=[event.slug]),
        "round": reverse("round", args=[event.slug, 9]),
        "pair": reverse("pair", args=[event.slug, pair.pk]),
    }
    weights = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        weights[name] = len(response.content)
    assert all(w < LIMIT for w in weights.values()), weights
    results = client.get(pages["results of round 3"]).content.decode()
    assert f"{reverse('results', args=[event.slug])}" in results and 'value="3" selected' in results
    overview = client.get(pages["tournament"] + "?m-round=2").content.decode()
    assert "?m-round=9#matches" in overview and "/match/" in overview
