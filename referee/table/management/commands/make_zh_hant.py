"""``manage.py make_zh_hant``: the Traditional Chinese catalogue written anew from the simplified one (run it
after any change to locale/zh_Hans or to the reviewed terms, then compilemessages)."""

from django.core.management.base import BaseCommand

from referee.traditional import write_catalogue


class Command(BaseCommand):
    help = (
        "Write locale/zh_Hant/LC_MESSAGES/django.po from the zh-hans catalogue (OpenCC s2tw, reviewed terms)."
    )

    def handle(self, *args, **options) -> None:
        path = write_catalogue()
        self.stdout.write(f"{path}")
