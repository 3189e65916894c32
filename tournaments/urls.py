"""Every URL of the tournaments app: the public's pages and the desk (included by referee/urls.py)."""

from django.urls import include, path

from tournaments.checkin.kiosk_views import kiosk_check_in

urlpatterns = [
    path("", include("tournaments.public.urls")),
    path("", include("tournaments.entries.urls")),
    path("", include("tournaments.live.urls")),
    path("", include("tournaments.season.urls")),
    path("t/<slug:slug>/desk/calls/", include("tournaments.calls.urls")),
    path("t/<slug:slug>/desk/check-in/", include("tournaments.checkin.urls")),
    path("t/<slug:slug>/desk/", include("tournaments.adjusted.urls")),
    path("t/<slug:slug>/check-in/<str:token>/", kiosk_check_in, name="kiosk-check-in"),
    path("", include("tournaments.teams.urls")),
    path("t/<slug:slug>/desk/", include("tournaments.desk.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("t/<slug:slug>/boards/print/", include("tournaments.board.print_urls")),
    path("", include("tournaments.organisations.urls")),
]
