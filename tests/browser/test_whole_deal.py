"""A whole deal as a newcomer plays it (issue 29, "Done when"): at desk (1440×900), laptop
(1280×720), phone (390×844) and small phone (360×640) size, a Quick game (one deal) started from the home page and
played from its first turn to its end by clicking Hint and then Play the hint. At every turn of
the person the table fits (test_table_fits's check: every meld of both teams wholly in the
viewport and clipped by no box around it), and each computer's seat line says its last move
where it can be read (test_browser_moves_on_table's check); over the deal the cumulative layout
shift (test_layout_shift's recording and its web-vitals windows) stays at or under 0.1.
A screenshot of the deal's end goes to $FOOT_SHOTS (default /tmp/foot-shots) for a person to see.

Hidden melds are gathered over the deal and named together when the test fails; the first turn
that hid one is screenshot to $FOOT_SHOTS too (whole-deal-<size>-hidden.png)."""

import os
import re
import time
from pathlib import Path

import pytest

from .test_browser_moves_on_table import SEAT_LINES
from .test_layout_shift import RECORD_SHIFTS, cls
from .test_table_fits import CHECK, sized_page

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("FOOT_SHOTS", "/tmp/foot-shots"))
TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")

# South may act (its turn, the table showing the newest view, nothing in flight), or the deal is over.
READY = """() => {
  const t = window.footTable;
  if (document.querySelector('#game-over').open || document.querySelector('#deal-end').open) return true;
  if (!t || !t.ui.shown) return false;
  return t.ui.shown.turn === t.ui.me && !t.ui.pending && !t.ui.playing
    && !document.querySelector('#btn-hint').disabled && t.ui.shownV === t.model.v;
}"""
OVER = "() => document.querySelector('#game-over').open || document.querySelector('#deal-end').open"
TURN_STARTS = "() => !document.querySelector('#btn-draw').disabled"  # a turn starts with a draw (R25)
MELDS = "() => document.querySelectorAll('.melds :is(.meld, .red-threes)').length"


def start_a_quick_game(page, site) -> None:
    """As a newcomer: the home page, the Quick game preset (one deal), Start a new game."""
    page.goto(site.url + "/?speed=fast")
    page.select_option("#rules-solo", "quick")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("#deal-info").inner_text() == "Deal 1 of 1"


def play_the_hint(page) -> None:
    page.get_by_role("button", name="Hint").click()
    page.wait_for_selector("#btn-offer:not([hidden])")
    version = page.evaluate("window.footTable.model.v")
    page.get_by_role("button", name="Play the hint").click()
    page.wait_for_function(f"() => window.footTable.model.v > {version} || ({OVER})()", timeout=60000)


def assert_seat_lines_readable(page, size_name: str) -> None:
    """Each computer's line says its own last move (never another seat's), inside the viewport and
    at least a line high: on a phone a long line is cut to one line with an ellipsis (foot.css)."""
    lines = page.evaluate(SEAT_LINES)
    assert all(line["text"] and line["inside"] and line["height"] >= 10 for line in lines), f"{size_name}: {lines}"
    assert not any(line["text"].startswith(("You ", "North ", "East ", "West ")) for line in lines), lines


def table_problems(page, when: str) -> list[str]:
    """test_table_fits's check: the page does not scroll, the hand keeps two rows, every card,
    button and pile is in sight (asserted here); the melds it finds hidden are given back."""
    report = page.evaluate(CHECK)
    hidden = [problem for problem in report["problems"] if problem.startswith("meld melds-")]
    others = [problem for problem in report["problems"] if problem not in hidden]
    assert others == [], f"{when}: " + "; ".join(others[:8])
    assert report["rows"] <= 2, f"{when}: the hand takes {report['rows']} rows"
    return [f"{when} (level {report['meldLevel']}): {problem}" for problem in hidden]


@pytest.mark.parametrize("size_name", ["desk", "laptop", "phone", "small-phone"])
def test_a_whole_quick_game_deal_keeps_every_meld_in_sight_and_holds_still(site, make_page, size_name):
    page = sized_page(make_page, size_name)
    page.add_init_script(RECORD_SHIFTS)
    started = time.monotonic()
    start_a_quick_game(page, site)
    turns = steps = melds_checked = most_melds = 0
    hidden_melds: list[str] = []
    while True:
        page.wait_for_function(READY, timeout=60000)
        if page.evaluate(OVER):
            break
        if page.evaluate(TURN_STARTS):
            turns += 1
            # At the start of each of South's turns: its last turn's melds and the computers' moves shown.
            hidden = table_problems(page, f"{size_name}, turn {turns}")
            if hidden and not hidden_melds:  # the first time, for a person to see what was hidden
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"whole-deal-{size_name}-hidden.png"))
            hidden_melds += hidden
            melds = page.evaluate(MELDS)
            melds_checked, most_melds = melds_checked + melds, max(most_melds, melds)
            if turns > 1:  # on the deal's first turn no computer has moved yet
                assert_seat_lines_readable(page, f"{size_name}, turn {turns}")
        play_the_hint(page)
        steps += 1
        assert steps < 400, "the deal never ended"
    page.get_by_role("dialog", name=re.compile("win|lose|draw|tie", re.I)).wait_for()
    page.wait_for_timeout(1200)  # a last session window closes (1 s without a shift)
    shifts = page.evaluate("window.footShifts")
    score, window = cls(shifts)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"whole-deal-{size_name}.png"))
    page.get_by_role("button", name="Look at the table").click()  # the finished table, as a player looks at it
    page.screenshot(path=str(SHOTS / f"whole-deal-{size_name}-table.png"))
    print(
        f"{size_name}: {turns} turns, {steps} hint steps, {melds_checked} melds checked (at most {most_melds}),",
        f"{len(hidden_melds)} found hidden,",
        f"CLS {score:.4f} over {len(shifts)} shifts, {time.monotonic() - started:.0f} s",
    )
    assert turns >= 5, "a whole deal has more than a few turns"
    assert score <= 0.1, window
    assert page.foot_errors == []
    assert hidden_melds == [], f"{len(hidden_melds)} hidden melds: " + "; ".join(hidden_melds[:4])
