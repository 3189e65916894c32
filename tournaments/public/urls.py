"""The public's pages: home, first run, and each tournament's overview, standings, rounds, results and deal logs."""

from django.urls import path

from tournaments.public import boards, bracket_page, replay, screen, views
from tournaments.setup import views as setup_views

urlpatterns = [
    path("", views.home, name="home"),
    path("setup/", views.setup, name="setup"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path("t/<slug:slug>/results/", views.results_page, name="results"),
    path("t/<slug:slug>/bracket/", bracket_page.bracket_page, name="bracket"),
    path("t/<slug:slug>/pairs/<int:pair_id>/", views.pair_page, name="pair"),
    path("t/<slug:slug>/matches/<int:match_id>/deals/", views.deal_log_page, name="deal-log"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/deals/<int:number>/",
        replay.deal_replay_page,
        name="deal-replay",
    ),
    path("t/<slug:slug>/boards/", boards.boards_page, name="boards"),
    path("t/<slug:slug>/boards/<int:number>/", boards.board_page, name="board"),
    path("t/<slug:slug>/screen/", screen.screen_page, name="screen"),
    path("t/<slug:slug>/screen/panels/", screen.screen_panels_fragment, name="screen-panels"),
]

# A new tournament (the director's).
urlpatterns += [
    path("tournaments/new/", setup_views.new_tournament, name="tournament-new"),
]
