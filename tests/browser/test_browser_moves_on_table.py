"""What the computers did, readable on the table itself, and the Score and log panel of a phone
(issue 29, item 3): each other seat's box says its last move; the panel opens at the newest line,
ends above the turn bar, and closes by its button, by Escape and by a tap outside that never
reaches the table underneath."""

import pytest

from .conftest import CORNER, load_engine_helpers, open_table, pick, start_game_from
from .test_table_fits import sized_page

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()
HAND = "KC KD 8C 8D 5C 6D 9H TC JS QD 4S"


def play_a_round(page):
    """South discards; the three computers play their turns; South's turn again."""
    open_table(
        page, page.site, start_game_from(page, page.site, helpers.position(hands={"S": HAND}, turn="S", phase="play"))
    )
    pick(page, "Four of spades")
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function(
        "document.querySelector('#seat-right .seat-last').textContent"
        " && document.querySelector('#turn-banner').classList.contains('mine')",
        timeout=60000,
    )


# Each other seat's line of its last move: its text, whether it lies inside the viewport, and
# whether it is shown whole (not cut to nothing by its box).
SEAT_LINES = """() => ['left', 'top', 'right'].map((where) => {
  const line = document.querySelector(`#seat-${where} .seat-last`);
  const r = line.getBoundingClientRect();
  const inside = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  return { where, text: line.textContent, inside, height: r.height,
    shown: line.scrollHeight <= line.clientHeight + 1 || line.clientHeight >= 24 };
})"""


@pytest.fixture
def sized(site, make_page):
    def open_at(size_name):
        page = sized_page(make_page, size_name)
        page.site = site
        play_a_round(page)
        return page

    return open_at


@pytest.mark.parametrize("size_name", ["desk", "laptop", "phone", "small-phone"])
def test_each_seat_box_says_its_last_move(sized, size_name):
    page = sized(size_name)
    lines = page.evaluate(SEAT_LINES)
    assert all(line["text"].startswith("discarded ") for line in lines), lines  # "West (computer)" is the box's title
    assert all(line["inside"] and line["shown"] for line in lines), lines
    assert page.foot_errors == []


def panel_state(page):
    return page.evaluate("""() => {
      const side = document.getElementById('side');
      const open = document.getElementById('table').dataset.side === 'open'
        && getComputedStyle(side).display !== 'none';
      const s = side.getBoundingClientRect();
      const newest = [...document.querySelectorAll('#log li')].pop().getBoundingClientRect();
      const bar = document.getElementById('turn-banner').getBoundingClientRect();
      const newestInside = newest.top >= s.top - 1 && newest.bottom <= s.bottom + 1;
      return { open, newestInside, aboveBar: s.bottom <= bar.top };
    }""")


@pytest.mark.parametrize("size_name", ["phone", "small-phone"])
def test_the_panel_opens_at_the_newest_line_and_closes_three_ways(sized, size_name):
    page = sized(size_name)
    toggle = page.get_by_role("button", name="Score and log")
    toggle.click()
    state = panel_state(page)
    assert state == {"open": True, "newestInside": True, "aboveBar": True}, state
    page.keyboard.press("Escape")
    assert not panel_state(page)["open"]
    toggle.click()
    page.locator("#btn-close-side").click()
    assert not panel_state(page)["open"]
    # A tap outside closes it, and the card under the tap is not picked.
    toggle.click()
    card = page.locator("#hand .card").first
    box = card.bounding_box()
    page.mouse.click(box["x"] + CORNER["x"], box["y"] + CORNER["y"])
    assert not panel_state(page)["open"]
    assert page.locator('#hand .card[aria-pressed="true"]').count() == 0
    assert page.foot_errors == []
