"""The table side: the judges' pages, and one address per action on a deal or a match (each its own view, the
paths the pages have always posted to: the trick-entry script and the offline journal put the action's name
into ``deal/<id>/ACTION/``)."""

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
    path("match/<int:match_id>/call-time/", views.call_time, name="match-call-time"),
    path("match/<int:match_id>/forfeit/", views.forfeit, name="match-forfeit"),
    path("deal/<int:deal_id>/", views.deal_page, name="deal"),
    path("deal/<int:deal_id>/state/", views.deal_state_json, name="deal_state"),
    path("deal/<int:deal_id>/review/", views.review, name="review"),
    path("deal/<int:deal_id>/play/", views.record_play, name="deal-play"),
    path("deal/<int:deal_id>/undo/", views.undo, name="deal-undo"),
    path("deal/<int:deal_id>/undo_trick/", views.undo_trick, name="deal-undo-trick"),
    path("deal/<int:deal_id>/kitty/", views.kitty, name="deal-kitty"),
    path("deal/<int:deal_id>/penalty/", views.penalty, name="deal-penalty"),
    path("deal/<int:deal_id>/remove_penalty/", views.remove_penalty, name="deal-remove-penalty"),
    path("deal/<int:deal_id>/played/", views.played, name="deal-played"),
    path("deal/<int:deal_id>/apply/", views.apply, name="deal-apply"),
    path("deal/<int:deal_id>/dismiss/", views.dismiss, name="deal-dismiss"),
    path("deal/<int:deal_id>/undismiss/", views.undismiss, name="deal-undismiss"),
    path("deal/<int:deal_id>/out_of_turn/", views.out_of_turn, name="deal-out-of-turn"),
    path("deal/<int:deal_id>/winner/", views.winner, name="deal-winner"),
    path("deal/<int:deal_id>/given_back/", views.given_back, name="deal-given-back"),
    path("deal/<int:deal_id>/submit/", views.submit, name="deal-submit"),
    path("deal/<int:deal_id>/confirm/", views.confirm, name="deal-confirm"),
    path("deal/<int:deal_id>/reopen/", views.reopen, name="deal-reopen"),
    path("deal/<int:deal_id>/pin_confirm/", views.pin_confirm, name="deal-pin-confirm"),
]
