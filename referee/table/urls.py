"""The table side: the judges' pages."""

from django.urls import path

from referee.table import board_views, call_views, links, offline, views

urlpatterns = [
    path("k/<slug:token>/", links.open_link, name="table-link"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("help/judge/", views.judge_guide, name="judge-guide"),
    path("match/<int:match_id>/", views.match_page, name="match"),
    path("match/<int:match_id>/deal/new/", views.new_deal, name="new_deal"),
    path("match/<int:match_id>/quick/", views.quick_entry, name="quick_entry"),
    path("match/<int:match_id>/call/", call_views.table_call, name="table-call"),
    path("match/<int:match_id>/board/", board_views.board_page, name="board"),
    path("match/<int:match_id>/<slug:action>/", views.match_action, name="match_action"),
    path("deal/<int:deal_id>/", views.deal_page, name="deal"),
    path("deal/<int:deal_id>/state/", views.deal_state_json, name="deal_state"),
    path("deal/<int:deal_id>/review/", views.review, name="review"),
    path(
        "deal/<int:deal_id>/play/", views.deal_play, name="deal_play"
    ),  # before the other actions: the play's own
    path("deal/<int:deal_id>/<slug:action>/", views.deal_action, name="deal_action"),
]
