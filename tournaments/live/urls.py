"""Featured tables: the public's live page of each and the desk's page that chooses them."""

from django.urls import path

from tournaments.live import views

urlpatterns = [
    path("t/<slug:slug>/live/<int:table>/", views.live_table, name="live-table"),
    path("t/<slug:slug>/desk/live/", views.desk_live, name="desk-live"),
]
