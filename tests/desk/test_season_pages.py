"""The season's pages: who may use the director's (anonymous, judge, director), a Chinese name's pinyin address,
and the workbook's file name in the tournament's own name.

The season (``build_season``, and a tournament ``summer`` to seed) is built once for the module (``scene``,
rolled back at its end) by the module's director and read again by each test inside its own savepoint."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.databases import module_transaction
from tests.desk.helpers import settings_data
from tests.desk.season_scene import Season, build_season
from tournaments.competition.access import JUDGE_GROUP, add_to_group
from tournaments.competition.accounts import create_director
from tournaments.models import Series, Tournament
from tournaments.setup.services import slug_base, unique_slug
from tournaments.workbook.download import content_disposition


@pytest.fixture(scope="module")
def scene(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """The season by the module's director, a judge, and ``summer``: built once per module
    (``module_transaction``); each test runs in its own savepoint."""
    with module_transaction(django_db_blocker):
        director = create_director("td", "director-pass-1")
        judge = get_user_model().objects.create_user("judge", password="judge-pass-1")
        add_to_group(judge, JUDGE_GROUP)
        season = build_season(director)
        Tournament.objects.create(name="夏季赛", slug="summer")
        yield {
            "director": director.pk,
            "judge": judge.pk,
            "series": season.series.pk,
            "tournaments": [t.pk for t in season.tournaments],
        }


@pytest.fixture
def director(scene):
    return get_user_model().objects.get(pk=scene["director"])


@pytest.fixture
def judge(scene):
    return get_user_model().objects.get(pk=scene["judge"])


@pytest.fixture
def season(scene) -> Season:
    """The module's season, read again (a test's writes are its own)."""
    by_pk = Tournament.objects.in_bulk(scene["tournaments"])
    return Season(Series.objects.get(pk=scene["series"]), [by_pk[pk] for pk in scene["tournaments"]])


DIRECTORS_PAGES = [
    ("get", "desk-series", lambda s: []),
    ("get", "desk-series-new", lambda s: []),
    ("post", "desk-series-new", lambda s: []),
    ("get", "desk-series-edit", lambda s: [s.series.slug]),
    ("post", "desk-series-edit", lambda s: [s.series.slug]),
    ("get", "desk-series-workbook", lambda s: [s.series.slug]),
    ("get", "desk-players", lambda s: []),
    ("post", "desk-players", lambda s: []),
    ("post", "desk-seed-by-rating", lambda s: ["summer"]),
]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "judge", "director"])
@pytest.mark.parametrize(("method", "name", "args"), DIRECTORS_PAGES)
def test_the_season_desk_pages_are_the_directors(client, season, director, judge, who, method, name, args):
    url = reverse(name, args=args(season))
    histories = Series.history.count()
    if who != "anonymous":
        client.force_login(judge if who == "judge" else director)
    response = getattr(client, method)(url)
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif who == "judge":
        assert response.status_code == 403
    else:
        assert response.status_code in (200, 302)
    assert Series.history.count() == histories  # an empty form changes nothing


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "judge", "director"])
def test_the_series_and_player_pages_are_everyones(client, season, director, judge, who):
    if who != "anonymous":
        client.force_login(judge if who == "judge" else director)
    for url in (
        reverse("series", args=[season.series.slug]),
        reverse("player", args=[season.player("张三").pk]),
    ):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("春季公开赛", "chun-ji-gong-kai-sai"),
        ("2026 春季赛 第1站", "2026-chun-ji-sai-di-1-zhan"),
        ("Spring Cup", "spring-cup"),
        ("！？", "tournament"),
    ],
)
def test_a_name_gives_a_readable_address(name, slug):
    assert slug_base(name) == slug


@pytest.mark.django_db
def test_a_chinese_tournament_gets_a_pinyin_address_numbered_when_taken(client, director):
    client.force_login(director)
    before = set(Tournament.objects.values_list("slug", flat=True))  # the module's season's
    for _ in range(2):
        client.post(reverse("tournament-new"), settings_data(name="春季公开赛"))
    slugs = sorted(set(Tournament.objects.values_list("slug", flat=True)) - before)
    assert slugs == ["chun-ji-gong-kai-sai", "chun-ji-gong-kai-sai-2"]
    assert Tournament.objects.count() == len(before) + 2
    assert unique_slug("春季公开赛") == "chun-ji-gong-kai-sai-3"


@pytest.mark.django_db
def test_the_workbook_downloads_under_the_tournaments_own_name(client, director):
    t = Tournament.objects.create(name="春季公开赛", slug="chun-ji-gong-kai-sai")
    client.force_login(director)
    header = client.get(reverse("desk-export", args=[t.slug]))["Content-Disposition"]
    day = f"{timezone.localdate():%Y%m%d}"
    assert header.startswith(f"attachment; filename=\"chun-ji-gong-kai-sai-{day}.xlsx\"; filename*=UTF-8''")
    assert unquote(header.split("UTF-8''")[1]) == f"春季公开赛-{day}.xlsx"
    assert header.isascii()


def test_a_file_name_keeps_no_quote_slash_or_control_character():
    header = content_disposition('a"b/c\\d\r\ne:.xlsx', 'x"y z.xlsx')
    assert header == "attachment; filename=\"x-y-z.xlsx\"; filename*=UTF-8''a-b-c-d-e-.xlsx"


@pytest.mark.django_db
def test_the_player_page_explains_the_rating_in_words_not_a_formula(client, season):
    page = client.get(reverse("player", args=[season.player("张三").pk])).content.decode()
    assert "等级分从 1000 分起" in page
    for formula in ("sigma", "Plackett", "mu −", "openskill"):
        assert formula not in page
