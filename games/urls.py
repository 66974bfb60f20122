"""Routes of the games app: the pages (games.pages) and the JSON API (games.api)."""

from games import api, pages

urlpatterns = pages.urlpatterns + api.urlpatterns
