"""The site's admin: Django's own, with a login that a network cannot try passwords on for ever.

After FOOT_ADMIN_LOGIN_FAILURES failed logins from one network (the keyed hash of
players.identity, never the address) within FOOT_ADMIN_LOGIN_WINDOW seconds, the login
answers 429 with Retry-After until the window has passed. The counts live in Django's cache,
which is Redis when REDIS_URL is set, so every Daphne process sees the same counts. A success
does not clear the count: one known password must not buy more guesses at the others.
Installed by server.admin_config.FootAdminConfig (in INSTALLED_APPS instead of django.contrib.admin).
"""

import math
import time
from typing import Any

from django.conf import settings
from django.contrib.admin import AdminSite
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from players.identity import client_address, network_hash


def login_limits() -> tuple[int, int]:
    """(failures allowed, window in seconds)."""
    return (
        int(getattr(settings, "FOOT_ADMIN_LOGIN_FAILURES", 5)),
        int(getattr(settings, "FOOT_ADMIN_LOGIN_WINDOW", 900)),
    )


def failure_key(request: HttpRequest) -> str:
    return "admin-login-failures:" + (network_hash(client_address(request)) or "unknown")


def seconds_blocked(request: HttpRequest) -> int:
    """How long this network must still wait before it may try again (0: it may)."""
    allowed, _window = login_limits()
    count: int
    window_ends: float
    count, window_ends = cache.get(failure_key(request), (0, 0.0))
    if count < allowed:
        return 0
    return max(0, math.ceil(window_ends - time.time()))


def count_failure(request: HttpRequest) -> None:
    """One more failure in the network's window (a window starts at its first failure)."""
    _allowed, window = login_limits()
    key = failure_key(request)
    count, window_ends = cache.get(key, (0, 0.0))
    if window_ends <= time.time():
        count, window_ends = 0, time.time() + window
    # A lost race between two processes loses one count at most: the limit still holds within one.
    cache.set(key, (count + 1, window_ends), timeout=max(1, math.ceil(window_ends - time.time())))


def too_many_attempts(wait: int) -> HttpResponse:
    minutes = max(1, math.ceil(wait / 60))
    text = ngettext(
        "Too many failed logins from your network. Try again in %(minutes)d minute.",
        "Too many failed logins from your network. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


class FootAdminSite(AdminSite):
    # No app list beside every page: on a laptop (1280) it took the room the moderators' columns
    # (flags, replay) need; the breadcrumbs and the home page lead to every list.
    enable_nav_sidebar = False

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        wait = seconds_blocked(request)
        if wait:
            return too_many_attempts(wait)
        response = super().login(request, extra_context)
        # A POST that logs in redirects; one that fails shows the form again with its errors.
        if request.method == "POST" and response.status_code == 200:
            count_failure(request)
        return response
