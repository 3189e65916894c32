"""Check-in, under ``t/<slug>/desk/check-in/``."""

from django.urls import path

from tournaments.checkin import kiosk_views, views

urlpatterns = [
    path("", views.desk_check_in, name="desk-check-in"),
    path("tablet/", views.desk_check_in_tablet, name="desk-check-in-tablet"),
    path("tablet-links/", kiosk_views.desk_kiosks, name="desk-kiosks"),
    path("tablet-links/<int:kiosk_id>/revoke/", kiosk_views.desk_kiosk_revoke, name="desk-kiosk-revoke"),
]
