from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from ctg_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("clubs/", include("accounts.club_urls")),
    path("", include("leagues.urls")),
    path("", include("tournaments.urls")),
    path("play/", include("games.urls")),
    path("", include("history.urls")),
]

if settings.DEBUG:
    urlpatterns += [path("error/<int:code>/", views.error_preview)]
