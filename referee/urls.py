from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournaments.people import views as people_views

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", people_views.password_change, name="password-change"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("referee.table.call_urls")),
    path("", include("tournaments.urls")),
    path("", include("referee.table.urls")),
]

# Refused requests get the site's own pages (and JSON for the page scripts): referee.error_pages.
handler400 = "referee.error_pages.bad_request"
handler403 = "referee.error_pages.permission_denied"
handler404 = "referee.error_pages.page_not_found"
handler500 = "referee.error_pages.server_error"
