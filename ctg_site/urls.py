from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from ctg_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page links; the icon is an SVG. Looked up per
    # request and not permanent: the static file's address may change with the storage.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("img/favicon.svg"))),
    path("i18n/", include("django.conf.urls.i18n")),
    # The task cards' admin moved with their model from the games app to ctg: old links and
    # bookmarks lead there, the rest of the path and the query kept.
    re_path(
        r"^admin/games/taskcards/(?P<url>.*)$",
        RedirectView.as_view(url="/admin/ctg/taskcards/%(url)s", permanent=True, query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("clubs/", include("accounts.club_urls")),
    path("", include("leagues.urls")),
    path("", include("tournaments.urls")),
    path("play/", include("games.urls")),
    path("", include("analysis.urls")),
    path("", include("history.urls")),
]

if settings.DEBUG:
    urlpatterns += [path("error/<int:code>/", views.error_preview)]
