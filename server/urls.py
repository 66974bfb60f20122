"""URL routes of the site: pages and JSON API of the apps, and the admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("leaderboards.urls")),
    path("", include("games.urls")),
]
