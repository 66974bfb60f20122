"""The game-over dialog (issue 29 item 11): one main button, "Play again", which starts a new
game with the same settings (a solo game: the same computer level), and a ranked daily's result
that fits a laptop's 720 px without scrolling."""

import re

import pytest

from .conftest import SCREENSHOTS, as_ranked_daily, last_deal_position, load_engine_helpers, open_table, start_game_from
from .test_browser_play import finish_the_deal

pytestmark = pytest.mark.browser
helpers = load_engine_helpers()

LAPTOP = {"width": 1280, "height": 720}


def test_play_again_is_the_main_button_and_starts_the_same_kind_of_game(site, make_page):
    page = make_page(LAPTOP)
    game = start_game_from(page, site, last_deal_position(), level="hard")
    open_table(page, site, game)
    finish_the_deal(page)
    dialog = page.get_by_role("dialog", name="Your team wins!")
    dialog.wait_for()
    again = dialog.get_by_role("link", name="Play again")
    assert "primary" in (again.get_attribute("class") or "")
    assert dialog.locator(".primary").count() == 1  # one main button
    page.screenshot(path=str(SCREENSHOTS / "game-over-laptop.png"))
    again.click()
    page.wait_for_url(lambda url: "/g/" in url and game["id"] not in url)
    page.wait_for_selector("#table[aria-busy=false]")
    new_id = page.url.rstrip("/").split("?")[0].rsplit("/", 1)[-1]
    made = page.request.get(f"{site.url}/api/games/{new_id}").json()
    assert made["mode"] == "solo" and made["level"] == "hard" and made["status"] == "playing"
    assert page.foot_errors == []


def test_a_daily_result_fits_720_px_without_scrolling(site, make_page):
    page = make_page(LAPTOP)
    game = start_game_from(page, site, last_deal_position())
    page.route_web_socket(re.compile(r"/ws/game/"), as_ranked_daily)
    result = {
        "date": "2026-12-01", "score": 8000, "opponents_score": 2000, "result": "won", "par": 6760,
        "against_par": 1240, "standing": "unnamed", "rank": None, "nickname": None,
        "board": "/leaderboard/2026-12-01/", "text": "Foot Canasta daily 2026-12-01\nWon 8,000 to 2,000",
    }  # fmt: skip
    page.route(re.compile(r"/api/daily/result/"), lambda route: route.fulfill(json=result))
    open_table(page, site, game)
    finish_the_deal(page)
    page.get_by_role("dialog", name="Your team wins!").wait_for()
    page.wait_for_selector("#share:not([hidden])")
    page.wait_for_selector("#daily-nickname")  # the longest result: the nickname form is there too
    sizes = page.evaluate(
        """() => { const d = document.getElementById('game-over'); const r = d.getBoundingClientRect();
                   return [d.scrollHeight, d.clientHeight, r.top, r.bottom]; }"""
    )
    page.screenshot(path=str(SCREENSHOTS / "daily-result-laptop.png"))
    assert sizes[0] <= sizes[1] and sizes[2] >= 0 and sizes[3] <= LAPTOP["height"], sizes
    assert page.foot_errors == []
