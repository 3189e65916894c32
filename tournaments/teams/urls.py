"""The team pages' addresses: the public's under ``t/<slug>/``, the desk's under ``t/<slug>/desk/``."""

from django.urls import path

from tournaments.teams import duplicate_match, views

urlpatterns = [
    path("t/<slug:slug>/teams/", views.tables_page, name="team-tables"),
    path("t/<slug:slug>/teams/<int:team_id>/", views.team_page, name="team"),
    path("t/<slug:slug>/fixtures/", views.fixtures_page, name="team-fixtures"),
    path("t/<slug:slug>/fixtures/<int:fixture_id>/", views.fixture_page, name="team-fixture"),
    path("t/<slug:slug>/playoffs/", views.playoffs_page, name="team-playoffs"),
    path("t/<slug:slug>/desk/teams/", views.desk_teams, name="desk-teams"),
    path("t/<slug:slug>/desk/teams/<int:team_id>/captain/", views.desk_captain, name="desk-team-captain"),
    path("t/<slug:slug>/desk/fixtures/<int:fixture_id>/postpone/", views.desk_postpone, name="desk-postpone"),
    path("t/<slug:slug>/desk/fixtures/<int:fixture_id>/deadline/", views.desk_deadline, name="desk-deadline"),
    path(
        "t/<slug:slug>/desk/fixtures/<int:fixture_id>/boards/<int:number>/ruling/",
        duplicate_match.desk_board_ruling,
        name="desk-board-ruling",
    ),
]
