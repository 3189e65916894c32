"""The tournament archive (``tractor-tournament/1``): one tournament, or every tournament of the site, in one
versioned file that another site reads back (issue 39 item 5; docs/archive.md).

``writing`` exports through the models, ``importing`` reads an archive in one transaction and judges every deal
again with the rules engine, ``files`` reads and writes the file. The backup uses ``write_site_archive`` where
it has no ``pg_dump``."""

from tournaments.backup.archive.files import ArchiveError, read_file
from tournaments.backup.archive.importing import ImportReport, import_archive
from tournaments.backup.archive.writing import export_tournament, write_site_archive

__all__ = [
    "ArchiveError",
    "ImportReport",
    "export_tournament",
    "import_archive",
    "read_file",
    "write_site_archive",
]
