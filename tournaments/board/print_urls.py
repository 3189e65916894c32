"""The printed boards of a duplicate session (``board_sheets``), under ``t/<slug>/boards/print/``."""

from django.urls import path

from tournaments.board import board_sheets

urlpatterns = [
    path("sheets/", board_sheets.dealing_sheets, name="board-dealing-sheets"),
    path("labels/", board_sheets.board_labels, name="board-labels"),
    path("movement/", board_sheets.table_movement_cards, name="board-movement-cards"),
]
