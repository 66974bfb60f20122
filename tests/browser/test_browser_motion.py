"""Other seats' moves are shown one after another at a human pace (a card flies, a log line
each), faster with the speed setting, and without movement under prefers-reduced-motion; a
flying card passes under the seats' labels, never over them (issue 29, item 2)."""

import itertools
import re

import pytest

from .conftest import DESK, PHONE, version, wait_for_my_turn

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


def play_one_turn_at(page, site, speed, watch=WATCH, seen="window.seen"):
    """A new game at `speed`, `watch` installed, one draw and discard, the computers' turns: `seen`."""
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.goto(page.url + f"?speed={speed}")
    page.wait_for_selector("#table[aria-busy=false]")
    page.evaluate(watch)
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    page.locator("#hand button.card").first.click()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since, timeout=90000)
    return page.evaluate(seen)


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


# At every frame of a flight, where a flying card and a seat's label (its name, its cards, its
# last move) overlap, what is painted on top there: the card is made hit-testable (it is not,
# pointer-events: none) so that elementFromPoint finds whichever of the two is above.
WATCH_FLIGHTS_OVER_LABELS = """() => {
  window.overLabels = { flights: 0, overlaps: 0, covered: [] };
  const labels = '.seat:not(.seat-bottom) :is(.seat-name, .seat-cards, .seat-last)';
  const look = () => {
    const flying = [...document.querySelectorAll('.card.flying')];
    for (const card of flying) {
      card.style.pointerEvents = 'auto'; // as a style property: the page's CSP refuses a <style>
      const c = card.getBoundingClientRect();
      for (const label of document.querySelectorAll(labels)) {
        const n = label.getBoundingClientRect();
        const left = Math.max(c.left, n.left), right = Math.min(c.right, n.right);
        const top = Math.max(c.top, n.top), bottom = Math.min(c.bottom, n.bottom);
        if (right - left < 4 || bottom - top < 4) continue;
        window.overLabels.overlaps += 1;
        const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
        if (hit && card.contains(hit)) window.overLabels.covered.push(label.textContent);
      }
    }
    requestAnimationFrame(look);
  };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('flying')) window.overLabels.flights += 1;
    }
  }).observe(document.body, { childList: true });
  requestAnimationFrame(look);
}"""


def test_a_flying_card_passes_under_the_seats_labels_on_a_phone(site, make_page):
    """On a phone the seats are small and a card flies to and from their middle: at each frame
    where it overlaps a seat's name, card count or last move, the label is on top (the card
    flies under the seat's box, which is opaque)."""
    page = make_page(PHONE, is_mobile=True, has_touch=True)
    seen = play_one_turn_at(page, site, "normal", WATCH_FLIGHTS_OVER_LABELS, "window.overLabels")
    assert seen["flights"] >= 3, seen
    assert seen["overlaps"] >= 3, seen  # the flights did cross the labels: the check looked
    assert seen["covered"] == [], seen
