"""One series of a name (issue 38 item 11): series that already share a name are told apart first, the later
ones numbered ("春季系列赛 (2)"), so the constraint can be added; going back drops the constraint only."""

from django.db import migrations, models


def number_shared_names(apps, schema_editor):
    Series = apps.get_model("tournaments", "Series")
    seen: dict[str, int] = {}
    for series in Series.objects.order_by("pk"):
        seen[series.name] = seen.get(series.name, 0) + 1
        if seen[series.name] > 1:
            series.name = f"{series.name[:190]} ({seen[series.name]})"
            series.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_organisations"),
    ]

    operations = [
        migrations.RunPython(number_shared_names, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="series",
            constraint=models.UniqueConstraint(fields=("name",), name="series_one_of_a_name"),
        ),
    ]
