from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    """The table side: the judges' pages and the recording service."""

    name = "referee.table"
    label = "table"
    verbose_name = _("Referee")
