"""Entries on line: the public form, a player's own page and the desk's entries page."""

from django.urls import path

from tournaments.entries import desk_views, views

urlpatterns = [
    path("t/<slug:slug>/enter/", views.enter, name="enter"),
    path("t/<slug:slug>/me/<slug:token>/", views.own, name="own-page"),
    path("t/<slug:slug>/desk/entries/", desk_views.desk_entries, name="desk-entries"),
]
