"""Check-in, under ``t/<slug>/desk/check-in/``."""

from django.urls import path

from tournaments.checkin import views

urlpatterns = [
    path("", views.desk_check_in, name="desk-check-in"),
    path("tablet/", views.desk_check_in_tablet, name="desk-check-in-tablet"),
]
