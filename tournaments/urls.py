"""The desk's and the public's pages of one tournament (included by referee/urls.py)."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/rounds/<int:number>/", views.round_page, name="round"),
    path("t/<slug:slug>/results/", views.results_page, name="results"),
    path("t/<slug:slug>/pairs/<int:pair_id>/", views.pair_page, name="pair"),
    path("t/<slug:slug>/matches/<int:match_id>/deals/", views.deal_log_page, name="deal-log"),
    path("t/<slug:slug>/desk/", views.desk, name="desk"),
    path("t/<slug:slug>/desk/pair/", views.desk_pair_round, name="desk-pair-round"),
    path("t/<slug:slug>/desk/rounds/<int:number>/", views.desk_round, name="desk-round"),
    path(
        "t/<slug:slug>/desk/rounds/<int:number>/publish/", views.desk_publish_round, name="desk-publish-round"
    ),
    path("t/<slug:slug>/desk/rounds/<int:number>/delete/", views.desk_delete_round, name="desk-delete-round"),
    path("t/<slug:slug>/desk/pairs/<int:pair_id>/withdraw/", views.desk_withdraw, name="desk-withdraw"),
    path("t/<slug:slug>/desk/import/", views.desk_import, name="desk-import"),
    path("t/<slug:slug>/desk/import/confirm/", views.desk_import_confirm, name="desk-import-confirm"),
    path(
        "t/<slug:slug>/desk/import/template.<str:fmt>",
        views.desk_import_template,
        name="desk-import-template",
    ),
    path("t/<slug:slug>/desk/export.xlsx", views.desk_export, name="desk-export"),
]
