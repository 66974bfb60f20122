"""The other ways to play, in the browser: the daily game (ranked: no hints; the home page then
offers to continue it) and a table with a friend (invite link, joining, the host starting, and
each player seeing the table turned so that they sit at the bottom)."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESK, hand

pytestmark = pytest.mark.browser

TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")


def test_daily_game_is_ranked_without_hints_and_can_be_continued(site, page):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Play today’s game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    table_url = page.url
    assert hand(page).count() == 13
    assert not page.get_by_role("button", name="Hint").is_visible()  # hints are off in a ranked daily
    page.goto(site.url + "/")
    page.get_by_role("button", name="Continue today’s game").click()
    page.wait_for_url(TABLE_URL)
    assert page.url == table_url


def test_hint_in_a_solo_game_points_at_a_move(site, page):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function("document.querySelector('#message').textContent.startsWith('Hint')")
    assert page.locator("#controls button.hinted").count() == 1


def test_friends_table_invite_join_and_start(site, page, make_page):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Open a table").click()
    link = page.get_by_label("Invite link")
    expect(link).to_have_value(re.compile("/join/"))
    invite = link.input_value()
    assert re.search(r"/join/[A-Z0-9]+/$", invite)

    friend = make_page(DESK)
    friend.goto(invite)
    friend.get_by_role("button", name="Join the table").click()
    friend.wait_for_url(TABLE_URL)
    friend.wait_for_function("document.querySelector('#turn-banner').textContent.includes('host')")

    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.url == friend.url
    friend.wait_for_selector("#table[aria-busy=false]")
    assert hand(friend).count() == 13
    friend_seat = friend.evaluate("window.footTable.model.seat")
    assert friend_seat in {"N", "W", "E"}
    assert friend.locator("#seat-bottom").get_attribute("data-seat") == friend_seat  # the friend sits at the bottom
    place = {"N": "#seat-top", "W": "#seat-right", "E": "#seat-left"}[friend_seat]
    assert friend.locator(place).get_attribute("data-seat") == "S"  # the host, seen from the friend's seat
    assert "Your turn" in page.locator("#turn-banner").inner_text()
    assert "You" not in friend.locator("#turn-banner").inner_text()
