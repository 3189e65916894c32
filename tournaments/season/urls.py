"""A series' and a player's public pages, and the director's series and players pages (outside any tournament)."""

from django.urls import path

from tournaments.season import views

urlpatterns = [
    path("series/<slug:series>/", views.series_page, name="series"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("desk/series/", views.desk_series_list, name="desk-series"),
    path("desk/series/new/", views.desk_series_form, name="desk-series-new"),
    path("desk/series/<slug:series>/edit/", views.desk_series_form, name="desk-series-edit"),
    path("desk/series/<slug:series>/workbook.xlsx", views.desk_series_workbook, name="desk-series-workbook"),
    path("desk/players/", views.desk_players, name="desk-players"),
]
