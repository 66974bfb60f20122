"""Other seats' moves are shown one after another at a human pace (a card flies, a log line
each), faster with the speed setting, and without movement under prefers-reduced-motion."""

import itertools
import re

import pytest

from .conftest import DESK, version, wait_for_my_turn

pytestmark = pytest.mark.browser

WATCH = """() => {
  window.seen = { flying: 0, lines: [] };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('flying')) window.seen.flying += 1;
      if (node.tagName === 'LI') window.seen.lines.push(performance.now());
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def play_one_turn_at(page, site, speed):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.goto(page.url + f"?speed={speed}")
    page.wait_for_selector("#table[aria-busy=false]")
    page.evaluate(WATCH)
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    page.locator("#hand button.card").first.click()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since, timeout=90000)
    return page.evaluate("window.seen")


def test_bot_moves_fly_one_after_another_at_a_human_pace(site, page):
    seen = play_one_turn_at(page, site, "normal")
    assert seen["flying"] >= 3, seen  # at least a draw or a discard of each of the three bots
    bot_lines = seen["lines"][2:]  # after my draw and my discard
    assert len(bot_lines) >= 6
    gaps = [later - earlier for earlier, later in itertools.pairwise(bot_lines)]
    assert min(gaps) >= 250, gaps  # never a burst: each move gets its moment


def test_fast_speed_shows_the_same_moves_without_waiting(site, page):
    seen = play_one_turn_at(page, site, "fast")
    assert seen["flying"] == 0
    assert len(seen["lines"]) >= 8


def test_reduced_motion_moves_nothing_but_keeps_the_pace(site, make_page):
    page = make_page(DESK, reduced_motion="reduce")
    seen = play_one_turn_at(page, site, "normal")
    assert seen["flying"] == 0
    bot_lines = seen["lines"][2:]
    assert len(bot_lines) >= 6
    assert bot_lines[-1] - bot_lines[0] >= 250 * (len(bot_lines) - 1)
