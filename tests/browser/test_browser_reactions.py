"""Reactions at a table with a friend (issue 15, item 7), two browsers through the real Daphne: a
reaction clicked by one is shown at that seat on both pages for a few seconds; a second one too soon
is refused with the server's words and shows nothing on the other page; a solo table has no
reactions."""

import re

import pytest

from .conftest import DESK, SCREENSHOTS

pytestmark = pytest.mark.browser
TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")


def friends_table(site, host, friend):
    """The host opens a table (its lobby), the friend joins it by the invite link, the host starts."""
    host.goto(site.url + "/")
    host.get_by_role("button", name="Open a table").click()
    host.wait_for_url(TABLE_URL)
    invite = host.locator("#lobby-link")
    invite.wait_for()
    friend.goto(invite.input_value())
    friend.get_by_role("button", name="Join the table").click()
    friend.wait_for_url(TABLE_URL)
    host.get_by_role("button", name="Start the game").click()
    for page in (host, friend):
        page.wait_for_selector("#table[aria-busy=false]")
        page.wait_for_function("window.footTable.model.status === 'playing'")


def test_a_reaction_shows_at_the_seat_on_both_pages_and_a_flood_is_refused(site, make_page):
    host, friend = make_page(DESK), make_page(DESK)
    friends_table(site, host, friend)
    friend_seat = friend.evaluate("window.footTable.model.seat")
    bar = friend.get_by_role("group", name="Reactions")
    assert [b.inner_text() for b in bar.get_by_role("button").all()] == [
        "Nice!",
        "Oops",
        "Well played",
        "Thanks, partner",
        "Good game",
    ]
    bar.get_by_role("button", name="Nice!").click()

    bubble = host.locator(f'.reaction-bubble[data-seat="{friend_seat}"]')
    bubble.wait_for()
    assert bubble.inner_text().endswith(": Nice!") and bubble.inner_text().startswith("Friend (")
    # Shown at the friend's seat, on its edge towards the table's middle, on the host's page.
    seat_box = host.locator(f'.seat[data-seat="{friend_seat}"]').bounding_box()
    spot = bubble.bounding_box()
    middle = spot["x"] + spot["width"] / 2
    assert seat_box["x"] <= middle <= seat_box["x"] + seat_box["width"]
    edge = seat_box["y"] + seat_box["height"] if seat_box["y"] < 450 else seat_box["y"]
    assert abs(spot["y"] + spot["height"] / 2 - edge) < 40
    host.screenshot(path=SCREENSHOTS / "reaction-at-the-seat.png")
    assert friend.locator(".reaction-bubble").inner_text() == "You: Nice!"

    bar.get_by_role("button", name="Oops").click()  # too soon after the first
    friend.wait_for_function("document.querySelector('#message').textContent.startsWith('One reaction at a time')")
    friend.screenshot(path=SCREENSHOTS / "reaction-refused.png")
    host.wait_for_timeout(500)
    assert host.locator(".reaction-bubble").all_inner_texts() == [bubble.inner_text()]  # the refused one shows nowhere
    assert "Oops" not in host.locator(".reaction-bubble").inner_text()
    host.wait_for_function("document.querySelectorAll('.reaction-bubble').length === 0", timeout=8000)  # a few seconds
    assert host.foot_errors == [] and friend.foot_errors == []


def test_a_solo_table_has_no_reactions(site, make_page):
    page = make_page(DESK)
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("#reactions").count() == 1 and page.locator("#reactions").is_hidden()
