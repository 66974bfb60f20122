"""The table holds still (issue 29, item 2): cumulative layout shift, as web-vitals defines it
(layout-shift entries without recent input, grouped in session windows: a window ends after a
1-s gap or at 5 s; the score is the worst window's sum), stays at or under 0.1 over the turns
to a deal's end at laptop and phone size, and on the home and rules pages of a phone."""

import pytest

from .conftest import CORNER, open_table, start_game_from, version
from .test_table_fits import MY_TURN_OR_DEAL_END, late_deal_position, sized_page

pytestmark = pytest.mark.browser

RECORD_SHIFTS = """
window.footShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const sources = (entry.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?");
    window.footShifts.push({ t: entry.startTime, value: entry.value, sources });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


def cls(shifts: list[dict]) -> tuple[float, list]:
    """The worst session window's sum (web-vitals), and that window's shifts."""
    worst = 0.0
    worst_window: list[dict] = []
    window: list[dict] = []
    for shift in shifts:
        if window and (shift["t"] - window[-1]["t"] > 1000 or shift["t"] - window[0]["t"] > 5000):
            window = []
        window.append(shift)
        total = sum(s["value"] for s in window)
        if total > worst:
            worst, worst_window = total, list(window)
    return worst, worst_window


@pytest.mark.parametrize("size_name", ["laptop", "phone"])
def test_the_table_holds_still_over_the_turns_to_a_deals_end(site, make_page, size_name):
    page = sized_page(make_page, size_name)
    page.add_init_script(RECORD_SHIFTS)
    open_table(page, site, start_game_from(page, site, late_deal_position(), level="easy"))
    for _turn in range(8):
        if page.get_by_role("button", name="Draw 2").is_enabled():
            since = version(page)
            page.get_by_role("button", name="Draw 2").click()
            page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {since}")
        page.locator("#hand .card").first.click(position=CORNER)
        since = version(page)
        page.get_by_role("button", name="Discard").click()
        page.wait_for_function(MY_TURN_OR_DEAL_END.format(since=since + 7), timeout=60000)
        if page.locator("#deal-end").is_visible():
            break
    else:
        pytest.fail("the deal did not end in eight turns")
    page.wait_for_timeout(1200)
    score, window = cls(page.evaluate("window.footShifts"))
    print(f"{size_name}: CLS {score:.4f} over {len(page.evaluate('window.footShifts'))} shifts; worst window {window}")
    assert score <= 0.1, window
    assert page.foot_errors == []


@pytest.mark.parametrize("path", ["/", "/rules/"])
def test_the_home_and_rules_pages_hold_still_on_a_phone(site, make_page, path):
    page = sized_page(make_page, "phone")
    page.add_init_script(RECORD_SHIFTS)
    # As Lighthouse's mobile run does: a slow network (150 ms, 1.6 Mbit/s), so late fonts,
    # styles and API answers would show as shifts.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000},
    )
    page.goto(site.url + path)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)
    score, window = cls(page.evaluate("window.footShifts"))
    print(f"{path} on a phone: CLS {score:.4f}; worst window {window}")
    assert score <= 0.1, window
