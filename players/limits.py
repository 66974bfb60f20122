"""Rate limits and socket caps, shared by every process of the site. Counts only: it never decides a game.

- `hit(action, session=…, network=…)` counts one request of a kind (`game`: a game or lobby
  created, `player`: a new anonymous player, `join`: a join or an invite-code lookup,
  `nickname`: a nickname change, `list`: a look at one's own games) for the session and for the network, and raises
  `RateLimited` (with the seconds until the window that is full ends) when either is past its
  limit. The views call it; `RateLimitMiddleware` answers `429` with `Retry-After`.
- `cooldown(name, seconds)` lets one thing happen per `seconds` for `name` (a seat's reaction):
  0 when it may happen now (and the time starts), else the seconds left.
- `SocketLease` holds one websocket's place in the caps of its session, its network and its game (a
  spectator's in the spectators' own caps of its network and game): `claim` on connect, `renew` on
  every heartbeat (`renew_leases`: every socket of a process's heartbeat in one round trip),
  `release` on disconnect. A place whose process died frees itself `LEASE_HEARTBEATS` heartbeats later.

The settings (server/settings.py, docs/DEPLOY.md): a rate is "count/seconds", several windows
joined by commas ("20/60,200/3600": 20 a minute and 200 an hour); every per-network count is
multiplied by `FOOT_LIMIT_NETWORK_FACTOR` (1; the benchmark, one address for hundreds of
players, raises it).

Where the counts live: Redis when `REDIS_URL` is set, so that every Daphne process counts into
the same windows; else Django's cache (local memory by default: exact for the one process that
runs without Redis). Windows are fixed and aligned to the clock (`…:<seconds>:<index>`), counted
with INCR under EXPIRE in one MULTI on Redis (add + incr on the cache): one round trip per check;
across a window's boundary at most twice a limit gets through, which still stops a flood.

Why a module and not a library: django-ratelimit counts in the cache but is keyed from a Django
request (a view decorator), which a websocket consumer has not; `limits` has Redis and memory
storages but not Django's cache; neither holds concurrent places (sockets held, not opened).

Fails open: when Redis cannot be reached a check allows and logs. The limits stop floods; they
must not take the site down with Redis (whose restart the site survives: docs/RELIABILITY.md).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import redis
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

log = logging.getLogger(__name__)

SCOPES = ("session", "network")
# action -> scope -> the setting holding its rate
RATE_SETTINGS = {
    "game": {"session": "FOOT_LIMIT_GAME_SESSION", "network": "FOOT_LIMIT_GAME_NETWORK"},
    "player": {"network": "FOOT_LIMIT_PLAYER_NETWORK"},
    "join": {"session": "FOOT_LIMIT_JOIN_SESSION", "network": "FOOT_LIMIT_JOIN_NETWORK"},
    "nickname": {"session": "FOOT_LIMIT_NICKNAME_SESSION", "network": "FOOT_LIMIT_NICKNAME_NETWORK"},
    "list": {"session": "FOOT_LIMIT_LIST_SESSION", "network": "FOOT_LIMIT_LIST_NETWORK"},
    "replay": {"session": "FOOT_LIMIT_REPLAY_SESSION", "network": "FOOT_LIMIT_REPLAY_NETWORK"},
    "replay_cookieless": {"network": "FOOT_LIMIT_REPLAY_COOKIELESS_NETWORK"},
    "replay_steps": {"session": "FOOT_LIMIT_REPLAY_STEPS_SESSION", "network": "FOOT_LIMIT_REPLAY_STEPS_NETWORK"},
    "replay_page": {"session": "FOOT_LIMIT_REPLAY_PAGE_SESSION", "network": "FOOT_LIMIT_REPLAY_PAGE_NETWORK"},
}
SOCKET_SETTINGS = {
    "session": "FOOT_SOCKETS_PER_SESSION",
    "network": "FOOT_SOCKETS_PER_NETWORK",
    "game": "FOOT_SOCKETS_PER_GAME",
    # Spectators' sockets have caps of their own, so that watchers never fill a seated player's.
    "watch_network": "FOOT_SPECTATORS_PER_NETWORK",
    "watch_game": "FOOT_SPECTATORS_PER_GAME",
}
NETWORK_SCOPES = ("network", "watch_network")
LEASE_HEARTBEATS = 3  # a socket's place outlives its last renewal by three heartbeats
Places = tuple[list[str], str]  # the caps' sets a socket's place is in, and the socket


@dataclass(frozen=True, slots=True)
class Window:
    count: int
    seconds: int


class RateLimited(Exception):
    """Too many of `action` from one session or network; try again after `retry_after` seconds."""

    def __init__(self, action: str, scope: str, retry_after: int):
        super().__init__(f"{action} limited per {scope} for {retry_after} s")
        self.action, self.scope, self.retry_after = action, scope, retry_after


def parse_rate(text: str) -> tuple[Window, ...]:
    """ "20/60,200/3600" -> (Window(20, 60), Window(200, 3600)); "" -> no limit."""
    windows = []
    for part in str(text or "").split(","):
        if part.strip():
            count, _slash, seconds = part.partition("/")
            windows.append(Window(int(count), int(seconds)))
    return tuple(windows)


def network_factor() -> float:
    return float(getattr(settings, "FOOT_LIMIT_NETWORK_FACTOR", 1) or 1)


def windows_of(action: str, scope: str) -> tuple[Window, ...]:
    name = RATE_SETTINGS[action].get(scope)
    windows = parse_rate(getattr(settings, name, "")) if name else ()
    if scope == "network":
        windows = tuple(Window(math.ceil(w.count * network_factor()), w.seconds) for w in windows)
    return windows


def socket_cap(scope: str) -> int:
    cap = int(getattr(settings, SOCKET_SETTINGS[scope], 0) or 0)
    return math.ceil(cap * network_factor()) if scope in NETWORK_SCOPES else cap


def now() -> float:
    """The clock of the windows and places (one function, so that a test can hold it still)."""
    return time.time()


def key(*parts: object) -> str:
    return ":".join([getattr(settings, "FOOT_LIMIT_PREFIX", "foot:limit"), *map(str, parts)])


# ---------------------------------------------------------------- rates


def hit(action: str, *, session: str | None = None, network: str | None = None) -> None:
    """Count one `action` for the session and the network; RateLimited when one is over its limit."""
    at = now()
    counters = []  # (scope, key, window, ends at)
    for scope, who in (("session", session), ("network", network)):
        for window in windows_of(action, scope) if who else ():
            index = int(at // window.seconds)
            counters.append(
                (scope, key("rate", action, scope, who, window.seconds, index), window, (index + 1) * window.seconds)
            )
    if not counters:
        return
    counts = store().increment([(name, window.seconds) for _scope, name, window, _end in counters])
    over = [
        (math.ceil(end - at), scope)
        for (scope, _name, window, end), count in zip(counters, counts, strict=True)
        if count > window.count
    ]
    if over:
        retry_after, scope = max(over)
        raise RateLimited(action, scope, max(1, retry_after))


# ---------------------------------------------------------------- one at a time


def cooldown(name: str, seconds: float) -> float:
    """0 if `name` may happen now (then not again for `seconds`), else the seconds until it may."""
    return store().cooldown(key("cooldown", name), seconds)


# ---------------------------------------------------------------- sockets held


class SocketLease:
    """One websocket's place in the caps of its session, network and game (each may be None).

    A spectator's socket (`watching`) takes its network's and game's places in the spectators'
    caps instead: a seated player shares no cap with watchers but the one of its own session."""

    def __init__(
        self,
        channel_name: str,
        *,
        game: str,
        session: str | None = None,
        network: str | None = None,
        watching: bool = False,
    ):
        self.member = channel_name
        prefix = "watch_" if watching else ""
        wanted = {prefix + "game": game, "session": session, prefix + "network": network}
        self.places = [
            (key("sockets", scope, who), socket_cap(scope))
            for scope, who in wanted.items()
            if who and socket_cap(scope) > 0
        ]
        self.scopes = [scope for scope, who in wanted.items() if who and socket_cap(scope) > 0]
        self.held = False

    def claim(self) -> str | None:
        """Take the places; None when taken, else the scope that is full (nothing is then held)."""
        full = store().claim(self.places, self.member, self.expiry()) if self.places else None
        self.held = full is None
        return None if full is None else self.scopes[full]

    def renew(self) -> None:
        renew_leases([self])

    def names(self) -> list[str]:
        """The caps' sets this socket's place is in."""
        return [name for name, _cap in self.places]

    def release(self) -> None:
        if self.held:
            self.held = False
            store().release(self.names(), self.member)

    @staticmethod
    def expiry() -> float:
        heartbeat = float(getattr(settings, "FOOT_HEARTBEAT_SECONDS", 10) or 10)
        return now() + LEASE_HEARTBEATS * heartbeat


def renew_leases(leases: list[SocketLease]) -> None:
    """Renew the places of every held lease (a process's heartbeat: one round trip for them all)."""
    held = [(lease.names(), lease.member) for lease in leases if lease.held]
    if held:
        store().renew_many(held, SocketLease.expiry())


def idle_seconds() -> float:
    """A socket that sent nothing (not even a heartbeat) for this long is closed."""
    return float(getattr(settings, "FOOT_WS_IDLE_SECONDS", 300) or 300)


# ---------------------------------------------------------------- where the counts live

# KEYS: one sorted set of places per cap; ARGV: the socket, now, its expiry, then each cap.
# Returns 0 when every cap had room (the socket is then in every set), else the 1-based index
# of the first full one (and the socket is in none). One script, so two processes cannot both
# take the last place.
CLAIM_SCRIPT = """
for i, name in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', name, '-inf', ARGV[2])
  if not redis.call('ZSCORE', name, ARGV[1]) and redis.call('ZCARD', name) >= tonumber(ARGV[3 + i]) then
    return i
  end
end
for i, name in ipairs(KEYS) do
  redis.call('ZADD', name, ARGV[3], ARGV[1])
  redis.call('EXPIREAT', name, math.ceil(tonumber(ARGV[3])) + 1)
end
return 0
"""


class RedisStore:
    def __init__(self, url: str):
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.claim_script = self.client.register_script(CLAIM_SCRIPT)

    def increment(self, counters: list[tuple[str, int]]) -> list[int]:
        pipe = self.client.pipeline(transaction=True)
        for name, seconds in counters:
            pipe.set(name, 0, ex=seconds + 1, nx=True)
            pipe.incr(name)
        counts: list[int] = pipe.execute()[1::2]
        return counts

    def cooldown(self, name: str, seconds: float) -> float:
        milliseconds = max(1, int(seconds * 1000))
        if self.client.set(name, 1, px=milliseconds, nx=True):
            return 0.0
        left: int = self.client.pttl(name) or 0
        return max(0.001, left / 1000)

    def claim(self, places: list[tuple[str, int]], member: str, expiry: float) -> int | None:
        full = self.claim_script(
            keys=[name for name, _cap in places], args=[member, now(), expiry, *(cap for _name, cap in places)]
        )
        return None if int(full) == 0 else int(full) - 1

    def renew_many(self, places: list[Places], expiry: float) -> None:
        pipe = self.client.pipeline(transaction=False)
        for names, member in places:
            for name in names:
                pipe.zadd(name, {member: expiry})  # back in the set after a Redis restart
                pipe.expireat(name, math.ceil(expiry) + 1)
        pipe.execute()

    def release(self, names: list[str], member: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        for name in names:
            pipe.zrem(name, member)
        pipe.execute()


class CacheStore:
    """Django's cache. Places are a {socket: expiry} dict per cap, changed under a lock of this
    process: exact in one process (the cache's default, local memory, is per process anyway)."""

    lock = threading.Lock()

    def increment(self, counters: list[tuple[str, int]]) -> list[int]:
        counts = []
        for name, seconds in counters:
            cache.add(name, 0, timeout=seconds + 1)
            try:
                counts.append(cache.incr(name))
            except ValueError:  # expired between add and incr: a new window
                cache.set(name, 1, timeout=seconds + 1)
                counts.append(1)
        return counts

    def cooldown(self, name: str, seconds: float) -> float:
        with self.lock:
            at = now()
            until: float | None = cache.get(name)
            if until is not None and until > at:
                return until - at
            cache.set(name, at + seconds, timeout=math.ceil(seconds) + 1)
            return 0.0

    def claim(self, places: list[tuple[str, int]], member: str, expiry: float) -> int | None:
        with self.lock:
            at = now()
            held = [{m: until for m, until in (cache.get(name) or {}).items() if until > at} for name, _cap in places]
            for index, ((_name, cap), members) in enumerate(zip(places, held, strict=True)):
                if member not in members and len(members) >= cap:
                    return index
            for (name, _cap), members in zip(places, held, strict=True):
                members[member] = expiry
                cache.set(name, members, timeout=math.ceil(expiry - at) + 1)
        return None

    def renew_many(self, places: list[Places], expiry: float) -> None:
        renewed: dict[str, list[str]] = {}  # each cap's set read and written once, however many sockets
        for names, member in places:
            for name in names:
                renewed.setdefault(name, []).append(member)
        with self.lock:
            for name, sockets in renewed.items():
                members = cache.get(name) or {}
                held = [member for member in sockets if member in members]
                if held:
                    members.update(dict.fromkeys(held, expiry))
                    cache.set(name, members, timeout=math.ceil(expiry - now()) + 1)

    def release(self, names: list[str], member: str) -> None:
        with self.lock:
            for name in names:
                members = cache.get(name) or {}
                if members.pop(member, None) is not None:
                    cache.set(name, members, timeout=max(1, math.ceil(max(members.values(), default=0) - now())))


class Store(Protocol):
    """What RedisStore and CacheStore both answer."""

    def increment(self, counters: list[tuple[str, int]]) -> list[int]: ...
    def cooldown(self, name: str, seconds: float) -> float: ...
    def claim(self, places: list[tuple[str, int]], member: str, expiry: float) -> int | None: ...
    def renew_many(self, places: list[Places], expiry: float) -> None: ...
    def release(self, names: list[str], member: str) -> None: ...


Answer = TypeVar("Answer")


class FailOpen:
    """Wraps a store: an error reaching it allows the request (and is logged) instead of failing it."""

    def __init__(self, inner: Store):
        self.inner = inner

    def increment(self, counters: list[tuple[str, int]]) -> list[int]:
        return self.guarded("increment", [0] * len(counters), lambda: self.inner.increment(counters))

    def cooldown(self, name: str, seconds: float) -> float:
        return self.guarded("cooldown", 0.0, lambda: self.inner.cooldown(name, seconds))

    def claim(self, places: list[tuple[str, int]], member: str, expiry: float) -> int | None:
        return self.guarded("claim", None, lambda: self.inner.claim(places, member, expiry))

    def renew_many(self, places: list[Places], expiry: float) -> None:
        self.guarded("renew", None, lambda: self.inner.renew_many(places, expiry))

    def release(self, names: list[str], member: str) -> None:
        self.guarded("release", None, lambda: self.inner.release(names, member))

    @staticmethod
    def guarded(method: str, allowed: Answer, call: Callable[[], Answer]) -> Answer:
        try:
            return call()
        except Exception:
            log.warning("rate limits: %s failed, allowing", method, exc_info=True)
            return allowed


_stores: dict[str, FailOpen] = {}


def store() -> FailOpen:
    """The store of the configured REDIS_URL (one client per URL and process), else the cache."""
    url = getattr(settings, "REDIS_URL", None) or ""
    if url not in _stores:
        _stores[url] = FailOpen(RedisStore(url) if url else CacheStore())
    return _stores[url]


# ---------------------------------------------------------------- the answer on HTTP


def refusal_message(seconds: int) -> str:
    return ngettext(
        "Too many requests: please wait %(seconds)d second and try again.",
        "Too many requests: please wait %(seconds)d seconds and try again.",
        seconds,
    ) % {"seconds": seconds}


def too_many_requests(request: HttpRequest, limited: RateLimited) -> HttpResponse:
    """429 with Retry-After: JSON for the API (and clients that ask for it), a page otherwise."""
    message = refusal_message(limited.retry_after)
    answer: HttpResponse
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        answer = JsonResponse(
            {"code": "rate_limited", "message": message, "retry_after": limited.retry_after}, status=429
        )
    else:
        answer = render(request, "limited.html", {"message": message, "title": _("Too many requests")}, status=429)
    answer["Retry-After"] = str(limited.retry_after)
    return answer


class RateLimitMiddleware:
    """Turns a RateLimited raised by any view into the 429 answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RateLimited):
            return too_many_requests(request, exception)
        return None
