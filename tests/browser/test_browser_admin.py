"""The moderators' screens in a real browser at laptop size (issue 29 item 12): the entries'
list shows every column a moderator needs — the flags and the replay link — beside the filters
without scrolling sideways; the reason page has a Cancel that applies nothing."""

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 720}
PASSWORD = "pw-for-browser-tests"

# A moderator and a day's flagged entries (long nicknames, copied openings, one network).
MODERATED_DAY = f"""
import datetime, uuid
from django.contrib.auth.models import Group, User
from django.utils import timezone
from leaderboards.models import Entry
from players.models import Player
user, made = User.objects.get_or_create(username="moderator-browser", defaults={{"is_staff": True}})
user.set_password("{PASSWORD}")
user.save()
user.groups.add(Group.objects.get(name="moderators"))
day = datetime.date(2026, 1, 15)
for i in range(5):
    player = Player.objects.create(nickname=f"Longnickname{{i}}-{{uuid.uuid4().hex[:6]}}")
    Entry.objects.create(player=player, date=day, game_id=uuid.uuid4(), score=5000 + i, opponents_score=3000,
        result="won", finished_at=timezone.now(), network="one-network", opening_digest="same-opening",
        seat_moves=120, median_seconds=0.5, hidden=i == 0, hidden_reason="impossible score" if i == 0 else "")
print(day.isoformat())
"""


def log_in(page, site) -> None:
    page.goto(site.url + "/admin/login/")
    page.fill("#id_username", "moderator-browser")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(site.url + "/admin/")


def test_at_1280_the_flags_and_replay_columns_fit_and_the_reason_page_cancels(site, make_page):
    day = site.shell(MODERATED_DAY)
    page = make_page(LAPTOP)
    log_in(page, site)
    page.goto(site.url + f"/admin/leaderboards/entry/?date__year={day[:4]}&date__month={int(day[5:7])}")
    page.wait_for_selector("#result_list")
    headers = {
        name: page.locator("#result_list thead th", has_text=name).first.bounding_box() for name in ("Flags", "Replay")
    }
    for name, box in headers.items():
        assert box is not None and box["x"] + box["width"] <= LAPTOP["width"], name
    # Nothing hidden to the right: neither the page nor the list scrolls sideways.
    widths = page.evaluate(
        """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
                  document.querySelector('#changelist .results').scrollWidth,
                  document.querySelector('#changelist .results').clientWidth]"""
    )
    assert widths[0] <= widths[1] and widths[2] <= widths[3], widths
    assert page.locator("#result_list a", has_text="replay").first.is_visible()
    page.screenshot(path=str(SCREENSHOTS / "admin-entries-laptop.png"))

    # Hide asks why first; Cancel goes back to the list with nothing hidden.
    actions = page.locator("select[name=action] option").all_inner_texts()
    assert not any("Delete" in action for action in actions), actions
    page.locator("#result_list tbody input.action-select").nth(1).check()
    page.select_option("select[name=action]", "hide_entries")
    page.click("button[name=index]")
    expect(page.locator("#reason-cancel")).to_be_visible()
    page.click("#reason-cancel")
    page.wait_for_selector("#result_list")
    expect(page.locator("#result_list tbody tr").nth(1)).to_contain_text("—")  # still not hidden
    assert page.foot_errors == []
