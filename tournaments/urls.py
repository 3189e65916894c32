"""Every URL of the tournaments app: the public's pages and the desk (included by referee/urls.py)."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.public.urls")),
    path("", include("tournaments.season.urls")),
    path("", include("tournaments.teams.urls")),
    path("t/<slug:slug>/desk/", include("tournaments.desk.urls")),
]
