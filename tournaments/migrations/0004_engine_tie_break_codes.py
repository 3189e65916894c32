"""Stored tie-breaks take the engine's codes (rules.standings.TIEBREAKS): level_difference → level_diff,
banker_deals → banker_wins; the other three were already the same."""

from django.db import migrations

OLD_TO_NEW = {"level_difference": "level_diff", "banker_deals": "banker_wins"}
NEW_TO_OLD = {new: old for old, new in OLD_TO_NEW.items()}


def rename(apps, mapping):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.only("pk", "tie_breaks"):
        codes = t.tie_breaks if isinstance(t.tie_breaks, list) else []
        renamed = [mapping.get(code, code) for code in codes]
        if renamed != codes:
            Tournament.objects.filter(pk=t.pk).update(tie_breaks=renamed)


def forwards(apps, schema_editor):
    rename(apps, OLD_TO_NEW)


def backwards(apps, schema_editor):
    rename(apps, NEW_TO_OLD)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_time_called")]

    operations = [migrations.RunPython(forwards, backwards)]
