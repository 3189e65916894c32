"""The referee on call: a table's call (the table's page posts it), the director's ruling on it, and the
director's adjusted results of a match."""

from django.urls import path

from referee.table import adjust_views, call_views

urlpatterns = [
    path("match/<int:match_id>/call/", call_views.table_call, name="table-call"),
    path(
        "t/<slug:slug>/desk/calls/<int:call_id>/resolve/",
        call_views.desk_call_resolve,
        name="desk-call-resolve",
    ),
    path("t/<slug:slug>/desk/matches/<int:match_id>/adjust/", adjust_views.desk_adjust, name="desk-adjust"),
    path(
        "t/<slug:slug>/desk/adjustments/<int:adjustment_id>/withdraw/",
        adjust_views.desk_adjustment_withdraw,
        name="desk-adjustment-withdraw",
    ),
]
