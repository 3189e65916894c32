"""Chinese first: the language is the visitor's choice (cookie), else zh-hans — not the browser's header."""

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """LocaleMiddleware that ignores Accept-Language.

    Clubs run the event in Chinese; a spectator's English phone should still see the Chinese page first, with
    English one click away (the switch in the header stores the choice in the language cookie).
    """

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = dict(settings.LANGUAGES)
        if code not in supported:
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
