"""The table at phone size (390×844, touch) and desk size (1440×900): everything fits, a whole
turn can be played by touch and by keyboard alone, and screenshots go to the screenshots folder
(conftest; docs/screenshots with `make screenshots`)."""

import re

import pytest

from .conftest import (
    DESK,
    PHONE,
    SCREENSHOTS,
    hand,
    load_engine_helpers,
    open_table,
    pick,
    start_game_from,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()


def mid_game_position():
    """A deal under way: piles of every kind, open melds, red threes, a deep discard pile."""
    return helpers.position(
        hands={
            "S": "4H 6C 6D 9S 9H JC QD QS KH AS 2C JK 3S",
            "N": "5C 5D 8H TC",
            "W": "4C 7S 9D JD KC 6H 8C",
            "E": "5S 7C TD QH AC 2D 3C 4D 6S",
        },
        feet={"N": None},
        melds={
            "NS": ["KC KD KH KS KC KD KH", "8C 8D 8H 8S 2H 8D 8C", "AC AD AH", "7D 7H 7S 2S"],
            "EW": ["2C 2D 2H 2S JK JK JK", "TC TD TH", "5H 5S JK"],
        },
        red_threes={"NS": "3H", "EW": "3D 3H"},
        discard="4S 6H 9C JS QC TS 7C 5D",
        turn="S",
        phase="play",
    )


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def no_sideways_scroll(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def test_desk_table_layout_and_screenshot(site, page):
    open_table(page, site, start_game_from(page, site, mid_game_position()))
    pick(page, "Nine of spades")
    pick(page, "Nine of hearts")
    assert no_sideways_scroll(page, DESK["width"])
    boxes = {
        name: page.locator(selector).bounding_box()
        for name, selector in {
            "top": "#seat-top",
            "left": "#seat-left",
            "right": "#seat-right",
            "hand": "#hand",
        }.items()
    }
    assert boxes["top"]["y"] < boxes["left"]["y"] < boxes["hand"]["y"]  # partner above, me at the bottom
    assert boxes["left"]["x"] < boxes["top"]["x"] < boxes["right"]["x"]  # West left, East right
    assert page.locator("#seat-top").get_attribute("data-seat") == "N"
    assert page.locator("#seat-left").get_attribute("data-seat") == "W"
    # Meld kinds are told by text, not only by colour.
    melds = page.locator("#melds-us").inner_text() + page.locator("#melds-them").inner_text()
    for label in ("Clean pile", "Dirty pile", "Wild pile", "3 of 7"):
        assert label in melds
    assert page.locator("#hand").evaluate("e => e.getBoundingClientRect().bottom") <= DESK["height"]
    screenshot(page, "table-desk.png")


def test_phone_table_layout_and_screenshot(site, phone):
    open_table(phone, site, start_game_from(phone, site, mid_game_position()))
    pick(phone, "Nine of spades")
    assert no_sideways_scroll(phone, PHONE["width"])
    for selector in ("#seat-top", "#seat-left", "#seat-right", "#stock", "#discard", "#hand", "#controls"):
        box = phone.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, selector
    buttons = phone.locator("#controls button:visible").all()
    assert all(button.bounding_box()["height"] >= 40 for button in buttons)  # touch-sized
    screenshot(phone, "table-phone.png")


def test_a_whole_turn_by_touch_at_phone_size(site, phone):
    phone.goto(site.url + "/")
    phone.get_by_role("button", name="Start a new game").tap()
    phone.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    phone.wait_for_selector("#table[aria-busy=false]")
    phone.get_by_role("button", name="Draw 2").tap()
    phone.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    hand(phone).last.tap()
    since = version(phone)
    phone.get_by_role("button", name="Discard").tap()
    wait_for_my_turn(phone, since)
    phone.get_by_role("button", name="Score and log").tap()  # on a phone the log is a panel opened from the top bar
    assert phone.locator("#log").is_visible()
    assert "\nWest " in phone.locator("#log").inner_text()  # R6: West plays after South
    assert no_sideways_scroll(phone, PHONE["width"])


def test_a_whole_turn_by_keyboard(site, page):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.wait_for_selector("#table[aria-busy=false]")
    page.get_by_role("button", name="Draw 2").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    hand(page).first.focus()
    page.keyboard.press("Space")
    assert hand(page).first.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")  # clears the selection
    assert hand(page).first.get_attribute("aria-pressed") == "false"
    hand(page).first.focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Discard").focus()
    since = version(page)
    page.keyboard.press("Enter")
    wait_for_my_turn(page, since)
