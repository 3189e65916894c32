from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from tournaments.people import views as people_views


class FaviconView(RedirectView):
    """The site's icon, its static address found when asked (the manifest's hashed name in production)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


urlpatterns = [
    # Browsers ask for /favicon.ico before any page names its icon: the site's icon, not a 404 in the log.
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", people_views.password_change, name="password-change"),
    # A language choice changes nothing but the page's language, so its form carries no CSRF token: a public page
    # then sets no cookie and a proxy may share it (docs/decisions/, "the language switch without a token").
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("", include("tournaments.urls")),
    path("", include("referee.table.urls")),
]

# Refused requests get the site's own pages (and JSON for the page scripts): referee.error_pages.
handler400 = "referee.error_pages.bad_request"
handler403 = "referee.error_pages.permission_denied"
handler404 = "referee.error_pages.page_not_found"
handler500 = "referee.error_pages.server_error"
