"""Django's SQLite backend with a write gate: the site's database engine for SQLite (``referee.config``)."""
