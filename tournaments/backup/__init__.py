"""The day kept safe: the desk's identity, backups while the site serves, restore, and the tournament archive."""
