"""The director's adjusted results of a match, under ``t/<slug>/desk/``."""

from django.urls import path

from tournaments.adjusted import views

urlpatterns = [
    path("matches/<int:match_id>/adjust/", views.desk_adjust, name="desk-adjust"),
    path(
        "adjustments/<int:adjustment_id>/withdraw/",
        views.desk_adjustment_withdraw,
        name="desk-adjustment-withdraw",
    ),
]
