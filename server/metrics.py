"""GET /metrics: the site's counters in Prometheus's text format, through prometheus_client.

The room service counts its own (games.rooms.metrics); the front (server.front) counts open
websockets, limit hits and HTTP answers here; django-prometheus's middleware and database backend
wrappers (server/settings.py) count Django's requests, answers, exceptions and statements in the
same registry (its own /metrics view is not used: this one keeps to the allowed networks).

With PROMETHEUS_MULTIPROC_DIR set (an empty directory shared by every process of the site,
emptied before they start: deploy/), each process writes its counts to files there and any
process's /metrics adds up all of them; the process metrics (CPU, memory, descriptors) are then
this process's. Only loopback and the networks of FOOT_METRICS_NETWORKS may read it: others get
404, as for a page that does not exist.
"""

import ipaddress
import os
from collections.abc import Iterable

from django.conf import settings
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
    multiprocess,
)

WEBSOCKETS_OPEN = Gauge(
    "foot_websockets_open", "Websockets open (accepted, not yet closed)", multiprocess_mode="livesum"
)
LIMITS = Counter("foot_limits", "Rate-limit and cap hits, by kind", ["kind"])
HTTP_ANSWERS = Counter("foot_http_answers", "HTTP answers, by status class", ["status"])
HTTP_SECONDS = Histogram(
    "foot_http_seconds",
    "An HTTP request through Django, received to answered",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Close codes of the game socket (games.consumers) that mean a limit was hit.
LIMIT_CLOSES = {4008: "socket_flood", 4009: "socket_frame_size", 4429: "socket_cap"}


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> bytes:
    if multiprocess_dir() is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    ProcessCollector(registry=registry)
    return generate_latest(registry)


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    names = ["127.0.0.0/8", "::1/128", *settings.FOOT_METRICS_NETWORKS]
    return [ipaddress.ip_network(name.strip(), strict=False) for name in names if name.strip()]


def may_read(client: str | None, forwarded_for: Iterable[str]) -> bool:
    """The socket's peer and every address a proxy forwarded for must be in the allowed networks:
    through a local proxy (deploy/nginx) the peer is loopback, the reader is the forwarded one."""
    addresses = [client or "", *forwarded_for]
    networks = allowed_networks()
    for text in addresses:
        try:
            address = ipaddress.ip_address(text.strip())
        except ValueError:
            return False
        if not any(address in network for network in networks):
            return False
    return True


def process_ended(pid: int) -> None:
    """A process that stops cleanly takes its live gauges out of the shared files."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid)
