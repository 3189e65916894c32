"""The referee on call: a table's call (the table's page posts it) and the director's ruling on it."""

from django.urls import path

from referee.table import call_views

urlpatterns = [
    path("match/<int:match_id>/call/", call_views.table_call, name="table-call"),
    path(
        "t/<slug:slug>/desk/calls/<int:call_id>/resolve/",
        call_views.desk_call_resolve,
        name="desk-call-resolve",
    ),
]
