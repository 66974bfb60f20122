"""The admin login is throttled per network, with counts every process shares (issue 18, finding 8).

An attacker tried 20 passwords in 8.7 s. Now after FOOT_ADMIN_LOGIN_FAILURES failures from one
network within FOOT_ADMIN_LOGIN_WINDOW seconds the login answers 429 with Retry-After, even for
the right password; other networks are not affected. Across two Daphne processes sharing Redis,
the failures add up.
"""

import http.cookiejar
import secrets
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

PASSWORD = "a-long-password-1"


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def try_login(client: Client, password: str, address: str = "203.0.113.7"):
    return client.post("/admin/login/", {"username": "root", "password": password}, REMOTE_ADDR=address)


@pytest.mark.django_db
def test_after_five_failures_the_network_waits_even_with_the_right_password(settings):
    settings.FOOT_ADMIN_LOGIN_FAILURES, settings.FOOT_ADMIN_LOGIN_WINDOW = 5, 900
    User.objects.create_superuser("root", password=PASSWORD)
    attacker = Client()
    for _ in range(5):
        assert try_login(attacker, "wrong").status_code == 200  # the form again, with its error
    refused = try_login(attacker, PASSWORD)
    assert refused.status_code == 429 and 850 <= int(refused["Retry-After"]) <= 900
    assert "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in attacker.session
    assert try_login(Client(), PASSWORD, address="198.51.100.1").status_code == 302  # another network
    # The same /64 is one network: another address in it waits too.
    for _ in range(5):
        try_login(Client(), "wrong", address="2001:db8::1")
    assert try_login(Client(), PASSWORD, address="2001:db8::2").status_code == 429


@pytest.mark.django_db
def test_the_network_may_try_again_once_the_window_has_passed(settings, monkeypatch):
    settings.FOOT_ADMIN_LOGIN_FAILURES, settings.FOOT_ADMIN_LOGIN_WINDOW = 3, 600
    User.objects.create_superuser("root", password=PASSWORD)
    now = [1_000_000.0]
    monkeypatch.setattr("server.admin.time.time", lambda: now[0])
    for _ in range(3):
        try_login(Client(), "wrong")
    now[0] += 599
    assert try_login(Client(), PASSWORD)["Retry-After"] == "1"
    now[0] += 2
    assert try_login(Client(), PASSWORD).status_code == 302


@pytest.mark.django_db
def test_a_good_login_is_not_counted(settings):
    settings.FOOT_ADMIN_LOGIN_FAILURES = 2
    User.objects.create_superuser("root", password=PASSWORD)
    for _ in range(4):
        assert try_login(Client(), PASSWORD).status_code == 302


def status_of(opener, url: str, fields: dict | None = None) -> int:
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode() if fields else None)
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def failed_login(server) -> int:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = status_of(opener, server.http + "/admin/login/")
    if page != 200:
        return page  # the form itself is refused while the network waits
    token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    return status_of(
        opener, server.http + "/admin/login/", {"csrfmiddlewaretoken": token, "username": "nobody", "password": "wrong"}
    )


@pytest.mark.services
def test_two_daphne_processes_sharing_redis_count_the_same_failures(daphne, sqlite_url, redis_url):
    # A key of its own: the networks' hashes, and so the counts in the shared Redis, are this run's.
    env = {"REDIS_URL": redis_url, "FOOT_ADMIN_LOGIN_FAILURES": "4", "SECRET_KEY": secrets.token_hex(32)}
    first, second = daphne(sqlite_url, **env), daphne(sqlite_url, **env)
    assert [failed_login(first), failed_login(second), failed_login(first), failed_login(second)] == [200] * 4
    assert failed_login(first) == 429 and failed_login(second) == 429


@pytest.mark.django_db
def test_the_refusal_is_in_the_visitors_language(settings):
    settings.FOOT_ADMIN_LOGIN_FAILURES = 1
    try_login(Client(), "wrong")
    german = Client(HTTP_ACCEPT_LANGUAGE="de").post(
        "/admin/login/", {"username": "root", "password": "x"}, REMOTE_ADDR="203.0.113.7"
    )
    assert german.status_code == 429 and "Zu viele fehlgeschlagene Anmeldungen" in german.content.decode()
