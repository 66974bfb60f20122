"""House rules in the browser (issue 25): the home page's Quick game starts a one-deal game that
says so, the choice is remembered, and a Quick game on a phone ends at its game-over dialog after
deal 1 (R7, R55a, R56)."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESK, PHONE, load_engine_helpers, open_table, start_game_from
from .test_browser_play import finish_the_deal

pytestmark = pytest.mark.browser
helpers = load_engine_helpers()
TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")


def test_a_quick_game_from_home_is_one_deal_and_the_choice_is_remembered(site, make_page):
    page = make_page(DESK)
    page.goto(site.url + "/")
    page.select_option("#rules-solo", "quick")
    assert page.locator("#undo-solo").is_checked()  # V7: on in a solo game until unticked
    page.locator("#undo-solo").uncheck()
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("#deal-info").inner_text() == "Deal 1 of 1"
    page.locator("#house-rules summary").click()
    assert page.locator("#house-rules").inner_text().endswith("House rules: 1 deal")  # no undo
    assert page.locator("#btn-undo").is_hidden()
    page.goto(site.url + "/")
    assert page.locator("#rules-solo").input_value() == "quick"
    assert not page.locator("#undo-solo").is_checked()  # the last choice, remembered
    assert not page.locator("#undo-friends").is_checked()  # V7: off in a friends game unless chosen
    assert page.locator("#custom-solo").is_hidden()
    page.select_option("#rules-solo", "custom")
    assert page.locator("#custom-solo").is_visible()


def test_custom_rules_out_of_range_are_refused_with_the_servers_message(site, make_page):
    page = make_page(DESK)
    page.goto(site.url + "/")
    page.select_option("#rules-friends", "custom")
    page.locator("#custom-friends input[name=deals]").fill("7")
    page.get_by_role("button", name="Open a table").click()
    page.wait_for_function("document.getElementById('home-error').textContent.includes('deals')")
    assert "must be 1 to 4, not 7" in page.locator("#home-error").inner_text()


def test_a_quick_game_on_a_phone_ends_at_its_game_over_dialog_after_deal_1(site, make_page):
    page = make_page(PHONE)
    position = helpers.position(
        hands={"S": "QC QD 9S"},
        feet={"S": None, "N": None},
        melds={"NS": helpers.GOING_OUT_PILES + ["QH QS QC QD"]},
        turn="S",
        phase="play",
        rules={"deals": 1},
    )
    open_table(page, site, start_game_from(page, site, position))
    assert page.locator("#deal-info").inner_text() == "Deal 1 of 1"
    finish_the_deal(page)
    dialog = page.get_by_role("dialog", name="Your team wins!")
    dialog.wait_for()
    assert page.get_by_role("dialog", name="Deal 1 is over").count() == 0
    game_id = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    dialog.get_by_role("link", name="Play again").click()  # issue 25 item 8: the same rules
    page.wait_for_url(lambda url: "/g/" in url and game_id not in url)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("#deal-info").inner_text() == "Deal 1 of 1"
    new_id = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    before = page.request.get(f"{site.url}/api/games/{game_id}").json()["rules"]
    assert page.request.get(f"{site.url}/api/games/{new_id}").json()["rules"] == before


def test_the_host_changes_the_lobbys_rules_and_the_friend_sees_them(site, make_page):
    host = make_page(DESK)
    host.goto(site.url + "/")
    host.select_option("#rules-friends", "standard")
    host.get_by_role("button", name="Open a table").click()
    host.wait_for_url(TABLE_URL)
    host.wait_for_selector("#table[aria-busy=false]")
    assert host.locator("#house-rules").count() == 0
    friend = make_page(DESK)
    friend.goto(host.url)
    friend.wait_for_selector("#table[aria-busy=false]")
    assert friend.locator("#lobby-rules").count() == 0  # only the host may change them
    host.select_option("#rules-lobby", "two_deals")
    host.get_by_role("button", name="Use these rules").click()
    host.wait_for_selector("#house-rules")  # the page reloaded with the new rules
    host.locator("#house-rules summary").click()
    assert "House rules: 2 deals" in host.locator("#house-rules").inner_text()
    # The host's choice is remembered: the lobby's module, fetched when the page needs it, sets it.
    expect(host.locator("#rules-lobby")).to_have_value("two_deals")
    friend.wait_for_selector("#house-rules")  # its page reloads with the new rules
    friend.locator("#house-rules summary").click()
    assert "House rules: 2 deals" in friend.locator("#house-rules").inner_text()
