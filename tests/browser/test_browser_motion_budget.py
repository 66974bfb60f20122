"""The budget of issue #13: no main-thread task over 50 ms while the bots' moves animate, on this
2-core machine, with a 35-card hand (each bot move also re-renders a big hand). Measured twice:
PerformanceObserver 'longtask' (every task over 50 ms of wall-clock time is an entry) and
Chromium's performance timeline (a trace: each main-thread task's wall and CPU time).

The machine is shared (a load average far above its 2 cores is common while tests run), so a
task can take 50 ms of wall-clock time while the page is simply not scheduled: the budget is
held by the main thread's own work, the CPU time of every task, and the wall-clock figures are
printed beside it. The cards that fly are counted, so the animations did run."""

import json
import os

import pytest

from .conftest import CORNER, DESK, load_engine_helpers, start_game_from, version, wait_for_my_turn

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()

OBSERVE = """
window.longTasks = [];
window.frameGaps = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.longTasks.push({start: entry.startTime, duration: entry.duration});
}).observe({ type: 'longtask', buffered: true });
"""

WATCH_FRAMES = """() => {
  window.longTasks = [];
  window.frameGaps = [];
  window.flights = 0;
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('flying')) window.flights += 1;
    }
  }).observe(document.body, { childList: true });
  let last = performance.now();
  const tick = (now) => { window.frameGaps.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""

BIG_HAND = "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC QD QH KC KD KH AC AD AH 2C JK"


def main_thread_tasks(trace: bytes) -> list:
    """The renderer main thread's tasks of a Chromium trace: (wall ms, CPU ms) each."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    return [
        (e["dur"] / 1000, e.get("tdur", e["dur"]) / 1000)
        for e in events
        if e.get("name") == "RunTask" and e.get("ph") == "X" and (e["pid"], e["tid"]) in main
    ]


def test_no_long_task_while_the_bots_moves_animate(site, make_page, browser):
    page = make_page(DESK)
    page.add_init_script(OBSERVE)
    position = helpers.position(hands={"S": BIG_HAND}, melds={"NS": ["AS AS AS"]}, turn="S", phase="play")
    game = start_game_from(page, site, position)
    page.goto(site.url + game["url"] + "?speed=normal")
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.locator("#hand button.card").count() == 35
    page.evaluate(WATCH_FRAMES)
    browser.start_tracing(page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline"])
    page.locator('#hand button[aria-label="Four of clubs"]').click(
        position=CORNER
    )  # the visible corner of an overlapped card
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since, timeout=120000)  # three bots' moves, each shown at the normal pace
    tasks = main_thread_tasks(browser.stop_tracing())
    measured = page.evaluate("({tasks: window.longTasks, gaps: window.frameGaps, flights: window.flights})")
    gaps = sorted(measured["gaps"][1:])
    worst_gap = gaps[-1] if gaps else 0
    p99 = gaps[int(len(gaps) * 0.99)] if gaps else 0
    longest = max((task["duration"] for task in measured["tasks"]), default=0)
    cpu = sorted(task_cpu for _wall, task_cpu in tasks)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"bots' moves animated: {measured['flights']} cards flew over {len(gaps)} frames; "
        f"longtask entries (>50 ms wall): {len(measured['tasks'])}, longest {longest:.0f} ms; "
        f"trace: {len(tasks)} main-thread tasks, longest {max(wall for wall, _cpu in tasks):.1f} ms wall, "
        f"CPU p99 {cpu[int(len(cpu) * 0.99)]:.1f} ms, max {cpu[-1]:.1f} ms; "
        f"frame gap p99 {p99:.1f} ms, worst {worst_gap:.1f} ms"
    )
    assert measured["flights"] >= 6  # at least a draw and a discard of each bot flew
    assert len(tasks) > 100  # the trace did cover the bots' moves
    assert cpu[-1] < 50, cpu[-10:]  # no task of the page's own work over 50 ms
    assert page.foot_errors == []
