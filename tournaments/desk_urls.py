"""The scoring desk of one tournament (the TD's pages), under ``t/<slug>/desk/``."""

from django.urls import path

from tournaments import desk_views as views
from tournaments import setup_views

urlpatterns = [
    path("", views.desk, name="desk"),
    path("pair/", views.desk_pair_round, name="desk-pair-round"),
    path("rounds/<int:number>/", views.desk_round, name="desk-round"),
    path("rounds/<int:number>/publish/", views.desk_publish_round, name="desk-publish-round"),
    path("rounds/<int:number>/delete/", views.desk_delete_round, name="desk-delete-round"),
    path("pairs/<int:pair_id>/withdraw/", views.desk_withdraw, name="desk-withdraw"),
    path("import/", views.desk_import, name="desk-import"),
    path("import/confirm/", views.desk_import_confirm, name="desk-import-confirm"),
    path("import/template.<str:fmt>", views.desk_import_template, name="desk-import-template"),
    path("export.xlsx", views.desk_export, name="desk-export"),
]

# The tournament's settings and ruleset.
urlpatterns += [
    path("settings/", setup_views.tournament_settings, name="desk-settings"),
]
