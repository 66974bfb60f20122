"""The HTML pages of the site (home, table, join, rules) and the JavaScript translation catalogue.

The pages only lay out the site: everything that happens at the table lives in static/foot/,
and every rule lives in games/engine/. The test hook (start a game from a prepared position)
exists only when the environment says FOOT_TEST_HOOKS=1; it is off by default.
"""
import os

from django.shortcuts import render
from django.urls import path
from django.views.i18n import JavaScriptCatalog


def test_hooks_enabled() -> bool:
    return os.environ.get("FOOT_TEST_HOOKS", "").strip().lower() in {"1", "true", "yes", "on"}


def home(request):
    return render(request, "home.html")


def table(request, game_id):
    return render(request, "table.html", {"game_id": game_id, "ws_path": f"/ws/game/{game_id}/"})


def join(request, code):
    return render(request, "join.html", {"code": code})


def rules(request):
    return render(request, "rules.html")


urlpatterns = [
    path("", home, name="home"),
    path("g/<str:game_id>/", table, name="table"),
    path("join/<str:code>/", join, name="join"),
    path("rules/", rules, name="rules"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
