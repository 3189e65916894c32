"""The public JSON API's addresses, version 1 (included at ``/api/v1/``); ``openapi.json`` describes each."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("openapi.json", views.openapi, name="api-openapi"),
    path("tournaments/", views.tournament_list, name="api-tournaments"),
    path("tournaments/<slug:slug>/", views.tournament, name="api-tournament"),
    path("tournaments/<slug:slug>/rounds/", views.rounds, name="api-rounds"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="api-round"),
    path("tournaments/<slug:slug>/standings/", views.standings, name="api-standings"),
    path("tournaments/<slug:slug>/results/", views.results, name="api-results"),
    path("tournaments/<slug:slug>/bracket/", views.bracket, name="api-bracket"),
    path("tournaments/<slug:slug>/boards/", views.boards, name="api-boards"),
    path("tournaments/<slug:slug>/teams/", views.teams, name="api-teams"),
    path("tournaments/<slug:slug>/matches/<int:match_id>/", views.match, name="api-match"),
]
