"""players.limits on its own: rates counted per session and per network, socket places, in Django's
cache and in Redis alike (the same tests run on both stores)."""

import time
import uuid

import pytest

from players import limits


@pytest.fixture(params=["cache", "redis"])
def store(request, settings):
    """Each test on a fresh namespace of one store: Django's cache, or the real Redis."""
    settings.FOOT_LIMIT_PREFIX = f"test:{uuid.uuid4().hex}"
    settings.FOOT_LIMIT_NETWORK_FACTOR = 1
    if request.param == "redis":
        settings.REDIS_URL = request.getfixturevalue("redis_url")
    else:
        settings.REDIS_URL = None
    return request.param


@pytest.fixture
def still_clock(monkeypatch):
    """The windows' clock held at the start of an hour: no window ends while the test runs."""
    start_of_hour = time.time() // 3600 * 3600 + 1
    monkeypatch.setattr(limits, "now", lambda: start_of_hour)


def test_a_rate_is_windows_of_count_and_seconds():
    assert limits.parse_rate("20/60,200/3600") == (limits.Window(20, 60), limits.Window(200, 3600))
    assert limits.parse_rate("") == ()


def test_a_session_past_its_limit_is_refused_until_its_window_ends(store, settings, still_clock):
    settings.FOOT_LIMIT_GAME_SESSION, settings.FOOT_LIMIT_GAME_NETWORK = "3/60", "100/60"
    for _ in range(3):
        limits.hit("game", session="alice", network="home")
    with pytest.raises(limits.RateLimited) as refused:
        limits.hit("game", session="alice", network="home")
    assert refused.value.scope == "session" and refused.value.retry_after == 59  # held 1 s into the minute
    limits.hit("game", session="bob", network="home")  # another session of the same network still may


def test_a_network_counts_every_session_in_it(store, settings, still_clock):
    settings.FOOT_LIMIT_JOIN_SESSION, settings.FOOT_LIMIT_JOIN_NETWORK = "100/60", "4/60"
    for number in range(4):
        limits.hit("join", session=f"s{number}", network="cafe")
    with pytest.raises(limits.RateLimited) as refused:
        limits.hit("join", session="fresh", network="cafe")
    assert refused.value.scope == "network"
    limits.hit("join", session="fresh", network="elsewhere")


def test_the_network_factor_raises_only_the_network_limits(store, settings, still_clock):
    settings.FOOT_LIMIT_PLAYER_NETWORK = "2/60"
    settings.FOOT_LIMIT_NETWORK_FACTOR = 3
    for _ in range(6):
        limits.hit("player", network="bench")
    with pytest.raises(limits.RateLimited):
        limits.hit("player", network="bench")


def test_the_longest_window_sets_retry_after(store, settings, still_clock):
    settings.FOOT_LIMIT_NICKNAME_SESSION, settings.FOOT_LIMIT_NICKNAME_NETWORK = "10/60,2/3600", ""
    limits.hit("nickname", session="carol")
    limits.hit("nickname", session="carol")
    with pytest.raises(limits.RateLimited) as refused:
        limits.hit("nickname", session="carol")
    assert refused.value.retry_after == 3599  # the hourly window is the full one


def test_socket_places_are_capped_per_game_and_freed_on_release(store, settings):
    settings.FOOT_SOCKETS_PER_GAME, settings.FOOT_SOCKETS_PER_SESSION = 2, 10
    first, second = (limits.SocketLease(f"chan{n}", game="g1", session=f"s{n}") for n in (1, 2))
    assert first.claim() is None and second.claim() is None
    third = limits.SocketLease("chan3", game="g1", session="s3")
    assert third.claim() == "game"
    assert limits.SocketLease("chan4", game="g2", session="s3").claim() is None  # another game has room
    first.release()
    assert third.claim() is None


def test_a_refused_socket_holds_no_place_in_the_other_caps(store, settings):
    settings.FOOT_SOCKETS_PER_GAME, settings.FOOT_SOCKETS_PER_SESSION = 1, 2
    assert limits.SocketLease("a", game="full", session="dave").claim() is None
    assert limits.SocketLease("b", game="full", session="dave").claim() == "game"
    # had "b" taken its session place before the game refused it, this would be refused too
    assert limits.SocketLease("c", game="other", session="dave").claim() is None


def test_a_place_of_a_dead_process_frees_itself_after_three_heartbeats(store, settings):
    settings.FOOT_SOCKETS_PER_GAME, settings.FOOT_HEARTBEAT_SECONDS = 1, 0.5  # a place lasts 1.5 s
    held = limits.SocketLease("gone", game="g", session=None)
    assert held.claim() is None
    assert limits.SocketLease("next", game="g").claim() == "game"
    time.sleep(0.7)
    held.renew()  # a renewal keeps the place: now until 2.2 s
    assert limits.SocketLease("next", game="g").claim() == "game"
    time.sleep(1.8)  # no renewal for more than 3 heartbeats: the process is taken for dead
    assert limits.SocketLease("next", game="g").claim() is None


def test_an_unreachable_redis_lets_requests_through(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.FOOT_LIMIT_GAME_SESSION = "1/60"
    for _ in range(3):
        limits.hit("game", session="x", network="y")
    assert limits.SocketLease("c", game="g", session="x").claim() is None


def test_a_cooldown_lets_one_through_then_says_how_long_to_wait(store):
    """A seat's reactions (games.rooms.reactions): one, then the seconds left; after it, one more."""
    assert limits.cooldown("seat:S", 0.4) == 0
    left = limits.cooldown("seat:S", 0.4)
    assert 0 < left <= 0.4
    assert limits.cooldown("seat:N", 0.4) == 0  # another name has its own pause
    time.sleep(0.45)
    assert limits.cooldown("seat:S", 0.4) == 0
    assert limits.cooldown("seat:S", 0.4) > 0
