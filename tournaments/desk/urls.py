"""The scoring desk of one tournament (the TD's pages), under ``t/<slug>/desk/``."""

from django.urls import path

from tournaments.backup import views as backup_views
from tournaments.board import views as board_views
from tournaments.desk import archive_export, boards, knockout_round, screen_message, venue_results, views
from tournaments.people import views as people_views
from tournaments.season import views as season_views
from tournaments.setup import views as setup_views
from tournaments.table_links import views as table_views

urlpatterns = [
    path("", views.desk, name="desk"),
    path("pair/", views.desk_pair_round, name="desk-pair-round"),
    path("rounds/<int:number>/", views.desk_round, name="desk-round"),
    path("rounds/<int:number>/publish/", views.desk_publish_round, name="desk-publish-round"),
    path("rounds/<int:number>/unpublish/", views.desk_unpublish_round, name="desk-unpublish-round"),
    path("rounds/<int:number>/byes/<int:bye_id>/", views.desk_bye_points, name="desk-bye-points"),
    path("rounds/<int:number>/delete/", views.desk_delete_round, name="desk-delete-round"),
    path(
        "rounds/<int:number>/tables/<int:match_id>/decide/",
        knockout_round.desk_decide_tie,
        name="desk-decide-tie",
    ),
    path("import/", views.desk_import, name="desk-import"),
    path("import/confirm/", views.desk_import_confirm, name="desk-import-confirm"),
    path("import/template.<str:fmt>", views.desk_import_template, name="desk-import-template"),
    path("export.xlsx", views.desk_export, name="desk-export"),
    path("archive.json.gz", archive_export.desk_export_archive, name="desk-export-archive"),
    path("finish/", views.desk_finish, name="desk-finish"),
    path("reopen/", views.desk_reopen, name="desk-reopen"),
    path("screen-message/", screen_message.desk_screen_message, name="desk-screen-message"),
    path("backups/", backup_views.desk_backups, name="desk-backups"),
    path("backups/<str:name>", backup_views.desk_backup_download, name="desk-backup-download"),
]

# A duplicate's boards: dealt or imported, marked, exported; the director's artificial scores.
urlpatterns += [
    path("boards/", boards.desk_boards, name="desk-boards"),
    path("boards/deal/", boards.desk_deal_boards, name="desk-deal-boards"),
    path("boards/import/", boards.desk_import_boards, name="desk-import-boards"),
    path("boards/boards.json", boards.desk_export_boards, name="desk-export-boards"),
    path("boards/results.json", venue_results.desk_export_results, name="desk-export-results"),
    path("boards/results/import/", venue_results.desk_import_results, name="desk-import-results"),
    path("boards/<int:number>/mark/", boards.desk_mark_board, name="desk-mark-board"),
    path("boards/artificial/", boards.desk_artificial, name="desk-artificial"),
    path(
        "boards/artificial/<int:score_id>/take-back/",
        boards.desk_take_back_artificial,
        name="desk-take-back-artificial",
    ),
]

# The director's day: the table board, the confirmation queue and the round's printables.
urlpatterns += [
    path("board/", board_views.desk_board, name="desk-board"),
    path("board/rows/", board_views.desk_board_rows, name="desk-board-rows"),
    path("queue/", board_views.desk_queue, name="desk-queue"),
    path("rounds/<int:number>/table-cards/", board_views.desk_table_cards, name="desk-table-cards"),
    path("rounds/<int:number>/score-sheets/", board_views.desk_score_sheets, name="desk-score-sheets"),
    path("rounds/<int:number>/links/", table_views.table_links, name="desk-table-links"),
    path("rounds/<int:number>/links/cards/", table_views.issue_cards, name="desk-issue-cards"),
    path(
        "rounds/<int:number>/links/<int:match_id>/revoke/", table_views.revoke_link, name="desk-revoke-link"
    ),
]

# Pairs and players, judges (tournaments/people/views.py).
urlpatterns += [
    path("pairs/", people_views.pairs, name="desk-pairs"),
    path("pairs/add/", people_views.pair_add, name="desk-pair-add"),
    path("pairs/<int:pair_id>/", people_views.pair_edit, name="desk-pair-edit"),
    path("pairs/<int:pair_id>/withdraw/", people_views.pair_withdraw, name="desk-pair-withdraw"),
    path("pairs/<int:pair_id>/reinstate/", people_views.pair_reinstate, name="desk-pair-reinstate"),
    path("pairs/<int:pair_id>/delete/", people_views.pair_delete, name="desk-pair-delete"),
    path("pairs/<int:pair_id>/captain/", people_views.pair_captain, name="desk-pair-captain"),
    path(
        "pairs/<int:pair_id>/captain/password/",
        people_views.pair_captain_password,
        name="desk-pair-captain-password",
    ),
    path(
        "pairs/<int:pair_id>/captain/remove/",
        people_views.pair_captain_remove,
        name="desk-pair-captain-remove",
    ),
    path("judges/", people_views.judges, name="desk-judges"),
    path("judges/add/", people_views.judge_add, name="desk-judge-add"),
    path("judges/<int:user_id>/password/", people_views.judge_password, name="desk-judge-password"),
    path("judges/<int:user_id>/active/", people_views.judge_active, name="desk-judge-active"),
    path("judges/rounds/<int:number>/", people_views.round_judges, name="desk-round-judges"),
    path("judges/tables/<int:match_id>/", people_views.table_judge, name="desk-table-judge"),
    path("directors/", people_views.directors, name="desk-directors"),
    path("directors/add/", people_views.director_add, name="desk-director-add"),
    path("pairs/seed-by-rating/", season_views.desk_seed_by_rating, name="desk-seed-by-rating"),
]

# The tournament's settings and ruleset, and deleting a tournament created by mistake.
urlpatterns += [
    path("settings/", setup_views.tournament_settings, name="desk-settings"),
    path("settings/delete/", setup_views.tournament_delete, name="desk-delete-tournament"),
]
