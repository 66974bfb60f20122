"""The player's settings (issue #13, item 6), sounds (item 5) and Bengali numbers (item 8):
kept per browser across a reload and applied through attributes on <html> that the CSS reads
(large cards are larger, the four-colour deck colours clubs and diamonds apart), sound off until
turned on, and every number of a Bengali table written in Bengali digits."""

import re

import pytest

from .conftest import (
    DESK,
    PHONE,
    load_engine_helpers,
    open_table,
    start_game_from,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()

# Counts the AudioContexts the page makes: with sound off there must be none at all.
COUNT_AUDIO = """
window.audioContextsMade = 0;
const Original = window.AudioContext;
if (Original) window.AudioContext = class extends Original {
  constructor(...args) { super(...args); window.audioContextsMade += 1; }
};
"""


def a_position():
    return helpers.position(hands={"S": "KC KD KH 8C 8D 5C 6D 9H TC JS QD 4S KS"}, phase="play", turn="S")


def open_settings(page):
    page.get_by_role("button", name="Settings").click()
    dialog = page.get_by_role("dialog", name="Settings")
    assert dialog.is_visible()
    return dialog


def card_width(page):
    return page.locator("#hand button.card").first.evaluate("card => card.getBoundingClientRect().width")


def test_settings_are_kept_across_a_reload_and_applied(site, page):
    open_table(page, site, start_game_from(page, site, a_position()))
    html = page.locator("html")
    assert html.get_attribute("data-large-cards") is None and html.get_attribute("data-four-colour") is None
    small = card_width(page)
    clubs = page.locator('#hand button.card[data-code="KC"]').evaluate("card => getComputedStyle(card).color")
    spades = page.locator('#hand button.card[data-code="KS"]').evaluate("card => getComputedStyle(card).color")
    assert clubs == spades  # two colours: both black

    dialog = open_settings(page)
    dialog.get_by_label("Large cards").check()
    dialog.get_by_label("Four-colour deck", exact=False).check()
    dialog.get_by_label("Animation pace").select_option("slow")
    dialog.get_by_role("button", name="Close").click()
    assert not dialog.is_visible()

    page.goto(page.url.split("?")[0])  # the address no longer asks for a pace: the kept one holds
    page.wait_for_selector("#table[aria-busy=false]")
    assert html.get_attribute("data-large-cards") == ""
    assert html.get_attribute("data-four-colour") == ""
    assert html.get_attribute("data-speed") == "slow"
    assert card_width(page) > small * 1.1  # the cards really grew
    clubs = page.locator('#hand button.card[data-code="KC"]').evaluate("card => getComputedStyle(card).color")
    diamonds = page.locator('#hand button.card[data-code="KD"]').evaluate("card => getComputedStyle(card).color")
    hearts = page.locator('#hand button.card[data-code="KH"]').evaluate("card => getComputedStyle(card).color")
    spades = page.locator('#hand button.card[data-code="KS"]').evaluate("card => getComputedStyle(card).color")
    assert len({clubs, diamonds, hearts, spades}) == 4, (clubs, diamonds, hearts, spades)
    assert page.evaluate("window.footTable.pacer.speed") == "slow"

    dialog = open_settings(page)  # the dialog shows what is set
    assert dialog.get_by_label("Large cards").is_checked()
    assert dialog.get_by_label("Animation pace").input_value() == "slow"
    page.keyboard.press("Escape")  # a native dialog: Escape closes it, focus goes back to its button
    assert not dialog.is_visible()
    assert page.evaluate("document.activeElement.id") == "btn-settings"
    assert page.foot_errors == []


def test_the_settings_dialog_works_from_the_keyboard(site, page):
    open_table(page, site, start_game_from(page, site, a_position()))
    page.locator("#btn-settings").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "setting-large-cards"
    page.keyboard.press("Space")
    assert page.locator("html").get_attribute("data-large-cards") == ""
    page.keyboard.press("Space")
    assert page.locator("html").get_attribute("data-large-cards") is None
    labels = page.locator("#settings-dialog input, #settings-dialog select").evaluate_all(
        "controls => controls.map(c => c.labels.length && c.labels[0].textContent.trim())"
    )
    assert all(labels) and len(labels) == 4, labels


def test_sound_is_off_until_turned_on(site, make_page):
    page = make_page(DESK)
    page.add_init_script(COUNT_AUDIO)
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("html").get_attribute("data-sound") == "off"
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    page.locator("#hand button.card").first.click()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since, timeout=90000)  # three bots drew and discarded: still silence
    assert page.evaluate("window.audioContextsMade") == 0

    dialog = open_settings(page)
    dialog.get_by_label("Sounds", exact=False).check()
    dialog.get_by_role("button", name="Close").click()
    assert page.locator("html").get_attribute("data-sound") == "on"
    assert page.evaluate("window.audioContextsMade") == 1
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 16")
    page.locator("#hand button.card").first.click()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since, timeout=90000)
    played = page.evaluate("import('/static/foot/sound.js').then(m => [...m.played])")
    assert played.count("card") >= 6 and "turn" in played, played  # the bots' cards, then your turn
    assert page.evaluate("window.audioContextsMade") == 1  # one context for the page
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("html").get_attribute("data-sound") == "on"  # kept


BENGALI_DIGITS = re.compile(r"[০-৯]")


def test_a_bengali_table_writes_its_numbers_in_bengali_digits(site, make_page):
    page = make_page(PHONE, locale="bn-BD")
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 5C 6D 9H TC JS QD 4S KS"},
        phase="play",
        turn="S",
        deal=2,
        scores=[{"NS": {"total": 1250}, "EW": {"total": 730}}],
    )
    open_table(page, site, start_game_from(page, site, position))
    assert (
        page.evaluate("new Intl.NumberFormat('bn').format(1234567)") == "১২,৩৪,৫৬৭"
    )  # Chromium: Bengali digits by default
    texts = {
        selector: page.locator(selector).inner_text()
        for selector in ("#deal-info", "#minimum-info", "#stock", "#discard", "#seat-left", "#status")
    }
    for selector, text in texts.items():
        assert not re.search(r"[0-9]", text), (selector, text)  # no Western digit anywhere in them
        assert BENGALI_DIGITS.search(text), (selector, text)
    assert "২" in texts["#deal-info"]  # deal 2
    assert "১২৫০" in texts["#status"], texts["#status"]
    assert page.get_by_role("button", name="২টি তুলুন").count() == 1


def test_a_german_table_keeps_western_digits(site, make_page):
    page = make_page(DESK, locale="de-DE")
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 5C 6D 9H TC JS QD 4S KS"},
        phase="play",
        turn="S",
        deal=2,
        scores=[{"NS": {"total": 1250}, "EW": {"total": 730}}],
    )
    open_table(page, site, start_game_from(page, site, position))
    assert "1250" in page.locator("#status").inner_text()
    assert "Runde 2 von 4" in page.locator("#deal-info").inner_text()
