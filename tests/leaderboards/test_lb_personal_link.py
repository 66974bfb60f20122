"""Personal links cannot be used to plant an identity (issue 18, finding 2: login CSRF).

Opening a link only asks "Continue as …?"; the POST of that page (CSRF-checked) binds the
browser. A link works once and for 30 days. (That no log holds the token:
tests/reliability/test_link_logs.py.)
"""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from players import identity
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna_link(client):
    client.post("/api/nickname", {"nickname": "Anna"}, content_type="application/json")
    anna = Player.objects.get(pk=client.session["player_id"])
    return anna, client.post("/api/link").json()["url"]


def victim() -> tuple[Client, str]:
    """A browser with a player of its own."""
    browser = Client()
    browser.get("/api/session")
    browser.post("/api/nickname", {"nickname": "Victim"}, content_type="application/json")
    return browser, browser.session["player_id"]


def test_opening_a_link_asks_and_does_not_rebind_the_session(anna_link):
    anna, url = anna_link
    browser, own_id = victim()
    page = browser.get(url)
    assert page.status_code == 200 and "Continue as Anna?" in page.content.decode()
    assert page["Cache-Control"] == "no-store" and page["Referrer-Policy"] == "same-origin"
    assert browser.session["player_id"] == own_id
    assert identity.player_for_link(url.split("/")[2]) == anna  # looking did not use the link up


def test_the_confirmation_post_needs_the_csrf_token(anna_link):
    anna, url = anna_link
    careful = Client(enforce_csrf_checks=True)
    careful.get("/api/session")
    own_id = careful.session["player_id"]
    assert careful.post(url).status_code == 403  # a cross-site form has no token
    assert careful.session["player_id"] == own_id
    page = careful.get(url)
    token = page.context["csrf_token"]
    assert careful.post(url, {"csrfmiddlewaretoken": str(token)}).status_code == 200
    assert careful.session["player_id"] == str(anna.pk)


def test_a_link_works_once(anna_link):
    anna, url = anna_link
    first, _ = victim()
    assert first.post(url).status_code == 200 and first.session["player_id"] == str(anna.pk)
    second, own_id = victim()
    refused = second.get(url)
    assert refused.status_code == 404 and "Get a personal link for another device" in refused.content.decode()
    assert second.post(url).status_code == 404 and second.session["player_id"] == own_id


def test_a_link_expires_after_30_days(anna_link, client):
    anna, url = anna_link
    answer = client.post("/api/link").json()
    url = answer["url"]
    issued = Player.objects.get(pk=anna.pk).link_issued_at
    assert issued is not None
    assert datetime.datetime.fromisoformat(answer["expires_at"]) == issued + datetime.timedelta(days=30)
    Player.objects.filter(pk=anna.pk).update(link_issued_at=timezone.now() - datetime.timedelta(days=30, seconds=1))
    browser, own_id = victim()
    assert browser.get(url).status_code == 404
    assert browser.post(url).status_code == 404 and browser.session["player_id"] == own_id
    Player.objects.filter(pk=anna.pk).update(link_issued_at=timezone.now() - datetime.timedelta(days=29))
    assert browser.post(url).status_code == 200 and browser.session["player_id"] == str(anna.pk)


def test_the_link_page_says_how_long_it_works(client):
    client.get("/api/session")
    page = client.post("/leaderboard/link/").content.decode()
    assert "It works once, within 30 days." in page
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    german.get("/api/session")
    assert "Er funktioniert einmal, innerhalb von 30 Tagen." in german.post("/leaderboard/link/").content.decode()
