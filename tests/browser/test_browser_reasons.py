"""A partner that explains itself (issue #14, item 4): a computer's log line shows the reason its
own decision gave when tapped or pressed with Enter, in English and in German. South discards a
black three, so West draws and says why (R36: a black three blocks the pile)."""

import pytest

from .conftest import CORNER, DESK, load_engine_helpers, open_table, start_game_from

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()


def black_three_on_top():
    return helpers.position(
        hands={"S": "KS KD 8H 8D 5H 6D 9H TH JS QD 3C"},
        melds={"NS": ["AC AD AH"]},
        turn="S",
        phase="play",
    )


def discard_the_black_three(page, site) -> None:
    open_table(page, site, start_game_from(page, site, black_three_on_top()))
    page.locator('#hand button[data-code="3C"]').first.click(position=CORNER)
    page.locator("#btn-discard").click()
    page.wait_for_selector("#log li.has-reason button.log-line", timeout=30000)


def test_a_bots_line_shows_its_reason_when_pressed_with_enter(site, make_page):
    page = make_page(DESK)
    discard_the_black_three(page, site)
    item = page.locator("#log li.has-reason").first
    line = item.locator("button.log-line")
    assert item.inner_text().startswith("West (computer) drew 2 cards"), item.inner_text()
    assert line.get_attribute("aria-label") == "Why this move?"
    # The lines are not buttons named after moves: the action buttons keep their names alone.
    assert page.get_by_role("button", name="Discard").count() == 1
    assert page.get_by_role("button", name="Meld").count() == 1
    reason = page.locator("#log li.has-reason .log-reason").first
    assert reason.count() == 0 and line.get_attribute("aria-expanded") == "false"
    line.focus()
    page.keyboard.press("Enter")
    assert reason.is_visible() and line.get_attribute("aria-expanded") == "true"
    assert reason.inner_text() == "Why: a black three blocks the pile."
    page.keyboard.press("Enter")
    assert reason.count() == 0 and line.get_attribute("aria-expanded") == "false"
    assert page.locator("#log li.mine button").count() == 0  # your own lines give no reason
    assert page.foot_errors == []


def test_a_bots_reason_in_german_when_tapped(site, make_page):
    page = make_page(DESK, locale="de-DE")
    discard_the_black_three(page, site)
    page.locator("#log li.has-reason").first.click()  # a tap on the line itself
    reason = page.locator("#log li.has-reason .log-reason").first
    assert reason.inner_text() == "Warum: eine schwarze Drei sperrt den Stapel."
    page.screenshot(path="/tmp/foot-reason-de.png")
    assert page.foot_errors == []
