"""The replay viewer (/replay/<game>/): a finished game stepped through in the table view with
every hand open (and every foot not yet picked up), played at a speed, paused, and opened from
its shared link in another browser.

The game is a solo game from a prepared position in deal 4 (the test hook), with every foot
picked up and North–South's piles complete (R49), so it ends within a few dozen moves; South is
played at the table page by clicks (tests/browser/clicking_player.py), the `normal` bots play the
other seats. Every step the page shows was computed by the server's
engine from the stored moves (R59).
"""

import re

import pytest
from playwright.sync_api import expect

from .clicking_player import ClickingPlayer, play_together
from .conftest import DESK, PHONE, SCREENSHOTS, load_engine_helpers, new_page, open_table, start_game_from
from .test_browser_csp import YESTERDAY_DAILY

pytestmark = pytest.mark.browser
helpers = load_engine_helpers()

EARLIER = {
    "NS": {"melded": 300, "cards_left": -20, "red_threes": 100, "piles": 800, "going_out": 100, "total": 1280},
    "EW": {"melded": 200, "cards_left": -50, "red_threes": 0, "piles": 500, "going_out": 0, "total": 650},
}


def near_the_end() -> dict:
    return helpers.position(
        deal=4,
        hands={"S": "9S 9H 6C 7D", "W": "4S 8C TD JH", "N": "5C 6D 7H 9C", "E": "4D 8S TH JC"},
        feet=dict.fromkeys("SWNE"),
        melds={"NS": helpers.GOING_OUT_PILES + ["QH QS QC"]},
        turn="S",
        phase="draw",
        scores=[EARLIER] * 3,
        stock_top="9D 4C",
    )


def open_hand(page, seat_box: str):
    return page.locator(f"#{seat_box} .open-hand .card")


def step_shown(page) -> int:
    return int(page.locator("#table").get_attribute("data-step"))


@pytest.fixture
def finished_game(site, page) -> dict:
    game = start_game_from(page, site, near_the_end())
    open_table(page, site, game)
    south = ClickingPlayer(page)
    play_together([south], 120)
    assert south.over and south.tally.turns >= 1  # the game-over dialog is open
    return game


def test_a_finished_game_is_stepped_through_with_every_hand_open(site, page, browser, finished_game):
    # The game-over dialog offers the replay (a solo game: at once).
    page.goto(site.url + finished_game["url"] + "?speed=fast")
    page.locator("#game-over").get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(re.compile(rf"/replay/{finished_game['id']}/$"))
    page.wait_for_selector("#table[aria-busy=false]")
    total = int(page.locator("#replay-position").get_attribute("max"))
    assert total >= 2
    expect(page.locator("#replay-count")).to_have_text(f"Move 0 of {total}")
    expect(page.locator("#turn-banner")).to_contain_text("The deal.")
    # Every hand open: South's (mine, at the bottom) and the three others, as dealt in the position.
    expect(open_hand(page, "seat-bottom")).to_have_count(4)
    for box in ("seat-left", "seat-top", "seat-right"):
        expect(open_hand(page, box)).to_have_count(4)
    expect(page.locator(".open-foot")).to_have_count(0)  # every foot was picked up in the position
    assert sorted(open_hand(page, "seat-bottom").evaluate_all("cards => cards.map(c => c.dataset.code)")) == [
        "6C", "7D", "9H", "9S",
    ]  # fmt: skip

    # Step: South drew the stock's top two (R25), the log and the count say so; then back.
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#replay-count")).to_have_text(f"Move 1 of {total}")
    expect(page.locator("#turn-banner")).to_contain_text("You drew 2 cards")
    expect(open_hand(page, "seat-bottom")).to_have_count(6)
    assert {"4C", "9D"} <= set(open_hand(page, "seat-bottom").evaluate_all("cards => cards.map(c => c.dataset.code)"))
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#replay-count")).to_have_text(f"Move 2 of {total}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "replay.png"))
    page.get_by_role("button", name="Step back").click()
    expect(page.locator("#replay-count")).to_have_text(f"Move 1 of {total}")
    assert "step=1" in page.url  # the link says where the replay stands

    # Play at the fastest speed to the end, where it stops by itself.
    page.get_by_label("Speed").select_option(label="Very fast")
    play = page.locator("#btn-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_text("Pause")
    page.wait_for_function(f"document.querySelector('#table').dataset.step === '{total}'", timeout=30000)
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#turn-banner")).to_contain_text("The game is over.")
    assert "Total" in page.locator("#status").inner_text()
    assert f"step={total}" in page.url
    assert not page.foot_errors

    # Play, then pause in the middle: it stays where it was paused.
    page.get_by_role("button", name="To the deal").click()
    page.get_by_label("Speed").select_option(label="Slow")
    play.click()
    page.wait_for_function("document.querySelector('#table').dataset.step === '1'", timeout=10000)
    play.click()
    paused_at = step_shown(page)
    page.wait_for_timeout(2500)
    assert step_shown(page) == paused_at

    # The shared link, in another browser (no session: not a player of the game).
    other = new_page(browser, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        other.goto(site.url + f"/replay/{finished_game['id']}/?step=2")
        other.wait_for_selector("#table[aria-busy=false]")
        expect(other.locator("#replay-count")).to_have_text(f"Move 2 of {total}")
        expect(other.locator("#team-us-title")).to_have_text("North and South")
        assert "You" not in other.locator("#seat-bottom .seat-name").inner_text()  # South, by its direction
        other.screenshot(path=str(SCREENSHOTS / "replay-phone.png"))
        assert not other.foot_errors
    finally:
        other.context.close()


def test_a_bad_replay_link_is_a_clear_404(site, page):
    answer = page.goto(site.url + "/replay/00000000-0000-4000-8000-000000000000/")
    assert answer.status == 404


def test_the_desk_layout_keeps_the_controls_in_view(site, make_page, finished_game):
    desk = make_page(DESK)
    desk.goto(site.url + f"/replay/{finished_game['id']}/")
    desk.wait_for_selector("#table[aria-busy=false]")
    box = desk.locator("#replay-controls").bounding_box()
    assert box and box["y"] + box["height"] <= DESK["height"]
    assert re.search(r"Move 0 of \d+", desk.locator("#replay-count").inner_text())


def yesterdays_daily(site) -> str:
    """A whole daily of yesterday in the live site's database (the CSP test's, for a player
    without a nickname: that test's own player may already be there)."""
    named = 'Player.objects.create(nickname="Csp", nickname_key="csp")'
    script = YESTERDAY_DAILY.replace(named, "Player.objects.create()")
    return site.shell(script)


def test_a_deal_that_ends_is_shown_as_it_ended(site, page):
    """A whole daily of yesterday (closed: anyone may watch it): the step of the move that ended
    deal 1 shows deal 1's table with the hands as they were (R51–R53), the next step deal 2."""
    game_id = yesterdays_daily(site)
    steps = page.request.get(site.url + f"/api/watch/{game_id}").json()["steps"]
    end = next(index for index, step in enumerate(steps, start=1) if "deal_end" in step)
    page.goto(site.url + f"/replay/{game_id}/?step={end}")
    page.wait_for_selector("#table[aria-busy=false]")
    expect(page.locator("#deal-info")).to_have_text("Deal 1 of 4")
    expect(page.locator("#turn-banner")).to_contain_text("Deal 1 is over")
    counted = steps[end - 1]["deal_end"]["seats"]
    for box in ("seat-bottom", "seat-left", "seat-top", "seat-right"):
        seat = page.locator(f"#{box}").get_attribute("data-seat")
        expect(open_hand(page, box)).to_have_count(counted[seat]["cards"])
    # The feet not yet picked up as the deal ended: face up in their seat's box, marked so.
    for box in ("seat-bottom", "seat-left", "seat-top", "seat-right"):
        seat = page.locator(f"#{box}").get_attribute("data-seat")
        foot = page.locator(f"#{box} .open-foot")
        if counted[seat]["in_foot"]:
            expect(foot).to_have_count(0)
        else:
            expect(foot).to_be_visible()
            expect(foot).to_contain_text("Foot, not picked up")
            expect(foot.locator(".card")).to_have_count(counted[seat]["foot"])
    page.screenshot(path=str(SCREENSHOTS / "replay-deal-end.png"))
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.locator("#deal-info")).to_have_text("Deal 2 of 4")
    # A new deal: every foot is down again, 13 cards each (R11).
    for box in ("seat-bottom", "seat-left", "seat-top", "seat-right"):
        foot = page.locator(f"#{box} .open-foot")
        expect(foot).to_be_visible()
        expect(foot.locator(".card")).to_have_count(13)
    assert not page.foot_errors


LAPTOP = {"width": 1280, "height": 720}


def spilled_cards(page) -> list[str]:
    """The open cards (hands and feet) of the side seats that reach out of their seat's box."""
    return page.evaluate(
        """() => {
          const out = [];
          for (const id of ["seat-left", "seat-right", "seat-top"]) {
            const box = document.getElementById(id).getBoundingClientRect();
            for (const card of document.querySelectorAll(`#${id} .card`)) {
              const r = card.getBoundingClientRect();
              const outside = r.left < box.left - 0.5 || r.right > box.right + 0.5
                || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
              if (outside) out.push(`${id} ${card.dataset.code}`);
            }
          }
          return out;
        }"""
    )


def test_at_1280_the_open_hands_of_west_and_east_stay_in_their_boxes(site, make_page):
    """Issue 29 item 10: at the start of a deal (13 cards a hand, a foot of 13 each) every open
    card of West, North and East is inside its seat's box, at laptop size and at desk size."""
    game_id = yesterdays_daily(site)
    for size, name in ((LAPTOP, "replay-laptop.png"), (DESK, None)):
        page = make_page(size)
        page.goto(site.url + f"/replay/{game_id}/?step=0")
        page.wait_for_selector("#table[aria-busy=false]")
        assert page.locator("#seat-left .open-hand .card").count() == 13
        assert spilled_cards(page) == []
        if name:
            page.screenshot(path=str(SCREENSHOTS / name))
        box = page.locator("#replay-controls").bounding_box()
        assert box and box["y"] + box["height"] <= size["height"]
