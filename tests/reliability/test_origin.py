"""The websocket Origin must be the site's scheme, host and port exactly (issue #18, finding 6).

Before, Channels' AllowedHostsOriginValidator compared the host name only: `http://127.0.0.1:9999`,
`https://127.0.0.1` and any port of the site's host opened a user's socket with their cookies.
The matrix runs against a real Daphne (the Host header and scheme as a browser's handshake
gives them), and in process for the settings: CSRF_TRUSTED_ORIGINS feeds the allowed origins,
and a TLS proxy's X-Forwarded-Proto counts only when SECURE_PROXY_SSL_HEADER says so.
"""

import asyncio

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from server.origins import canonical_origin, origin_allowed


async def opens(server, origin: str | None) -> bool:
    """Whether the echo socket of `server` opens for a handshake sent with `origin` (None: no header)."""
    header = None if origin is None else Origin(origin)
    try:
        async with connect(f"{server.ws}/ws/echo/", origin=header, open_timeout=10) as socket:
            await socket.send("ping")
            return await asyncio.wait_for(socket.recv(), 10) == "ping"
    except InvalidStatus as refused:
        status = refused.response.status_code
    assert status == 403, status  # refused by the origin check, not by some other failure
    return False


def test_only_the_exact_origin_of_the_site_opens_a_socket(daphne, sqlite_url):
    server = daphne(sqlite_url)
    port = server.port
    matrix = {
        f"http://127.0.0.1:{port}": True,  # the site's own page
        f"http://127.0.0.1:{port + 1 if port < 65535 else port - 1}": False,  # another port of the host
        "http://127.0.0.1:9999": False,
        "http://127.0.0.1": False,  # the default port is another port
        f"https://127.0.0.1:{port}": False,  # another scheme
        f"http://localhost:{port}": False,  # another allowed host is another origin
        f"http://evil.example:{port}": False,  # another host
        f"http://127.0.0.1.evil.example:{port}": False,
        "null": False,  # a sandboxed frame or a file
        None: False,  # no Origin at all
    }
    results = {origin: asyncio.run(opens(server, origin)) for origin in matrix}
    assert results == matrix


def scope(origin: str | None, host: str = "foot.example", scheme: str = "ws", **headers) -> dict:
    sent = [(b"host", host.encode())] if host else []
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    sent += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    return {"type": "websocket", "scheme": scheme, "headers": sent}


def test_the_allowed_origins_come_from_csrf_trusted_origins_exactly(settings):
    settings.ALLOWED_HOSTS = ["foot.example", "127.0.0.1"]
    settings.WEBSOCKET_ALLOWED_ORIGINS = ["https://foot.example"]  # what settings.py makes of CSRF_TRUSTED_ORIGINS
    behind_proxy = "127.0.0.1:8001"  # a proxy that does not pass Host on
    assert origin_allowed(scope("https://foot.example", host=behind_proxy))
    assert origin_allowed(scope("https://foot.example:443", host=behind_proxy))  # the default port, spelled out
    assert origin_allowed(scope("HTTPS://FOOT.EXAMPLE", host=behind_proxy))
    for other in (
        "http://foot.example",
        "https://foot.example:8443",
        "https://www.foot.example",
        "https://foot.example.evil",
        "https://evil.example",
    ):
        assert not origin_allowed(scope(other, host=behind_proxy)), other


def test_the_sites_own_origin_follows_the_connection_scheme_and_host(settings):
    settings.ALLOWED_HOSTS = ["foot.example"]
    settings.WEBSOCKET_ALLOWED_ORIGINS = []
    assert origin_allowed(scope("https://foot.example", scheme="wss"))
    assert not origin_allowed(scope("http://foot.example", scheme="wss"))
    assert origin_allowed(scope("http://foot.example", scheme="ws"))
    assert not origin_allowed(scope("https://foot.example", scheme="ws"))  # TLS ended at a proxy Django is not told of
    assert not origin_allowed(scope("http://evil.example", host="evil.example"))  # a Host not in ALLOWED_HOSTS
    assert not origin_allowed(scope("http://foot.example", host=""))
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert origin_allowed(scope("https://foot.example", scheme="ws", x_forwarded_proto="https"))
    assert not origin_allowed(scope("http://foot.example", scheme="ws", x_forwarded_proto="https"))


def test_an_origin_is_a_scheme_a_host_and_a_port_only():
    assert canonical_origin("http://127.0.0.1:80") == "http://127.0.0.1"
    assert canonical_origin("https://[::1]:8443") == "https://[::1]:8443"
    for not_an_origin in (
        "null",
        "",
        "ftp://foot.example",
        "https://foot.example/page",
        "https://user@foot.example",
        "https://foot.example:99999",
        "foot.example",
    ):
        assert canonical_origin(not_an_origin) is None, not_an_origin
