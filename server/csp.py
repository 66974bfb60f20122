"""The Content-Security-Policy header: the site's pages run only the site's own script files.

Every page of the site loads its script and style from /static/ and the catalogue from /jsi18n/;
no template holds an inline script, an event-handler attribute or a style attribute (the client
sets styles through the CSSOM, which the policy allows). So a nickname or any other text that
slipped past escaping still could not run: inline script and style are not in the policy.
Django 5.2 has no CSP of its own; this middleware sets one policy on every response that
has none (an HTML page, and also the JSON answers, where it costs nothing). Tested in the browser
(tests/browser/test_browser_csp.py: no violation on any page) and per route (test_route_sweep.py).
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

DEFAULT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",  # the game's websocket: CSP 3 lets 'self' match ws(s):// of the same host
        "media-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", DEFAULT_POLICY)
        return response
