"""The home page's own games (issue 15, item 4): a solo game closed and reopened from the home page
goes on where it was; a finished game shows in the history with its final score (R55, R56); the
times read "2 hours ago" in English, German and Bengali (with Bengali digits)."""

import re

import pytest

from .conftest import DESK, SCREENSHOTS, hand, last_deal_position, load_engine_helpers, open_table, start_game_from
from .test_browser_play import finish_the_deal

pytestmark = pytest.mark.browser
helpers = load_engine_helpers()
TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")


def test_a_solo_game_closed_and_reopened_from_home_goes_on_where_it_was(site, make_page):
    page = make_page(DESK)
    page.goto(site.url + "/")
    assert page.locator("#my-games").is_hidden()  # a new browser has no games yet
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    table_url = page.url
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 15")
    drawn = sorted(hand(page).evaluate_all("cards => cards.map(card => card.dataset.key)"))
    seen_version = page.evaluate("window.footTable.model.v")

    page.close()  # the tab is closed; the same browser opens the site again
    page = page.context.new_page()
    page.goto(site.url + "/")
    row = page.locator("#my-games-list li")
    row.first.wait_for()
    assert row.count() == 1
    text = row.inner_text()
    assert "Against the computer (Normal)" in text and "Deal 1 of 4" in text and "just now" in text
    assert "your team 0, opponents 0" in text
    page.screenshot(path=SCREENSHOTS / "home-my-games.png")
    row.get_by_role("link", name=re.compile("^Continue")).click()
    page.wait_for_url(table_url)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.evaluate("window.footTable.model.v") == seen_version
    assert sorted(hand(page).evaluate_all("cards => cards.map(card => card.dataset.key)")) == drawn
    assert "Your turn" in page.locator("#turn-banner").inner_text()  # still this player's turn, after the draw
    assert page.get_by_role("button", name="Discard").is_visible()


def test_a_finished_game_shows_in_the_history_with_its_final_score(site, make_page):
    page = make_page(DESK)
    game = start_game_from(page, site, last_deal_position())
    open_table(page, site, game)
    finish_the_deal(page)
    page.get_by_role("dialog", name="Your team wins!").wait_for()
    page.goto(site.url + "/")
    finished = page.locator("#history-list li")
    finished.first.wait_for()
    assert page.locator("#my-games").is_hidden()  # nothing left to continue
    text = finished.inner_text()
    won = re.search(r"Your team won (\d+) to (\d+)", text)
    assert won is not None, text
    us, them = map(int, won.groups())
    assert us > them and us > 3 * 1280  # the three earlier deals and the last one, added up (R55)
    assert finished.get_by_role("link", name=re.compile("^Look at it")).get_attribute("href") == game["url"]


TWO_HOURS_AGO = """async () => {
  const { timeAgo } = await import('/static/foot/my_games.js');
  return timeAgo(new Date(Date.now() - 2 * 3600 * 1000 - 5000).toISOString());
}"""


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en-GB", "2 hours ago"), ("de-DE", "vor 2 Stunden"), ("bn-BD", "২ ঘ[ণন]্টা আগে")],  # ICU spells ঘণ্টা either way
)
def test_when_a_game_was_last_played_reads_in_the_page_language(site, make_page, locale, expected):
    page = make_page(DESK, locale=locale)
    page.goto(site.url + "/")
    said = page.evaluate(TWO_HOURS_AGO)
    assert re.fullmatch(expected, said), said
