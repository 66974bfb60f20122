"""The websocket Origin check: the page that opens a socket must be the site itself, exactly.

A browser sends `Origin: scheme://host[:port]` of the page with every websocket handshake, and
sends the site's cookies whatever that page is; so the Origin is the only thing that tells a
socket opened by the site's own page from one opened by any other page. Channels'
AllowedHostsOriginValidator compares the host name only (any port, either scheme passed). Here
an Origin is accepted only when its scheme, host and port are exactly

- the socket's own origin: `https` when the connection is secure (`wss`, or the proxy header of
  `SECURE_PROXY_SSL_HEADER`, as Django's CSRF check reads it), else `http`, with the `Host`
  header, which must be one of `ALLOWED_HOSTS`; or
- one of `settings.WEBSOCKET_ALLOWED_ORIGINS` (by default `CSRF_TRUSTED_ORIGINS`: the origins a
  deployment already trusts for its forms, e.g. when a proxy hides the public scheme or host).

A handshake without an Origin, or with `null`, is refused. Setup: docs/DEPLOY.md.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from server.front import ASGIApp, Receive, Scope, Send

DEFAULT_PORTS = {"http": 80, "https": 443}


def canonical_origin(text: str) -> str | None:
    """`scheme://host[:port]` lower-cased with the scheme's default port left out; None if not an origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.query or parts.username:
        return None
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    port = port if port is not None else DEFAULT_PORTS[scheme]
    return f"{scheme}://{host}" + ("" if port == DEFAULT_PORTS[scheme] else f":{port}")


def header(scope: Scope, name: bytes) -> str | None:
    key: bytes
    value: bytes
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def connection_is_secure(scope: Scope) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, expected = proxy_header
    # Django names it as in META ("HTTP_X_FORWARDED_PROTO"); the ASGI header is "x-forwarded-proto".
    value = header(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1"))
    return value is not None and value.split(",")[0].strip() == expected


def own_origin(scope: Scope) -> str | None:
    """The origin of the site as this connection reached it, when its Host is an allowed host."""
    host = header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return canonical_origin(("https" if connection_is_secure(scope) else "http") + "://" + host)


def allowed_origins() -> set[str]:
    """The configured origins, canonical (read at each handshake, so a test's settings apply)."""
    configured = getattr(settings, "WEBSOCKET_ALLOWED_ORIGINS", settings.CSRF_TRUSTED_ORIGINS)
    return {origin for origin in map(canonical_origin, configured) if origin}


def origin_allowed(scope: Scope) -> bool:
    sent = header(scope, b"origin")
    origin = canonical_origin(sent) if sent else None
    if origin is None:
        return False
    return origin == own_origin(scope) or origin in allowed_origins()


class ExactOriginValidator:
    """ASGI middleware: pass a websocket on only when `origin_allowed`, else deny the handshake (403)."""

    def __init__(self, application: ASGIApp):
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            # types-channels' precise ASGI scope and event types; this middleware's are plain mappings
            return await WebsocketDenier()(scope, receive, send)  # type: ignore[arg-type]
        return await self.application(scope, receive, send)
