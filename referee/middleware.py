"""The site's middleware. Chinese first: the language is the visitor's choice (cookie), else zh-hans — not the
browser's header. A wrong method gets the site's 405 page, not an empty answer; a write a finished tournament
refuses, or a stored ruleset the engine refuses, the site's 409 page."""

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

from referee.error_pages import method_not_allowed, tournament_finished, unplayable_ruleset
from rules.ruleset import RulesetError
from tournaments.competition.finishing import TournamentFinished

API_PREFIX = "/api/"


class ChineseFirstLocaleMiddleware(LocaleMiddleware):
    """LocaleMiddleware that ignores Accept-Language on the pages (the API follows it).

    Clubs run the event in Chinese; a spectator's English phone should still see the Chinese page first, with
    English one click away (the switch in the header stores the choice in the language cookie).
    """

    def process_request(self, request):
        code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = dict(settings.LANGUAGES)
        if code not in supported and request.path_info.startswith(API_PREFIX):
            # A feed's client has no language switch to click: the API follows its Accept-Language (docs/api.md).
            code = translation.get_language_from_request(request)
        if code not in supported:
            code = settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()


class MethodNotAllowedPage:
    """``require_POST`` and friends answer a wrong method with an empty 405: the site's page instead (Allow kept)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not getattr(response, "streaming", False) and not response.content:
            page = method_not_allowed(request)
            if response.has_header("Allow"):
                page["Allow"] = response["Allow"]
            return page
        return response


class RefusalPages:
    """A refusal raised through whichever view called the service, answered as the site's 409 page with its one
    sentence (JSON for the page scripts), so no view repeats the handling and none answers it with a 500:

    - a desk write to a finished tournament (``finishing.TournamentFinished``);
    - a stored ruleset the engine refuses (saved before it checked every setting, or written to the database
      directly), met by any page or judge's action of its tournament; the director corrects it on the settings
      page."""

    PAGES = ((TournamentFinished, tournament_finished), (RulesetError, unplayable_ruleset))

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        for kind, page in self.PAGES:
            if isinstance(exception, kind):
                return page(request, exception)
        return None
