"""The director's calls queue and the ruling, under ``t/<slug>/desk/calls/`` (the table's call is the judge's page's)."""

from django.urls import path

from tournaments.calls import views

urlpatterns = [
    path("", views.desk_calls, name="desk-calls"),
    path("live/", views.desk_calls_live, name="desk-calls-live"),
    path("<int:call_id>/", views.desk_call, name="desk-call"),
    path("<int:call_id>/on-the-way/", views.desk_call_on_the_way, name="desk-call-on-the-way"),
    path("<int:call_id>/resolve/", views.desk_call_resolve, name="desk-call-resolve"),
]
