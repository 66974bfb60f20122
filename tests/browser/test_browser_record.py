"""Your record, without an account (/record/): reached from the home page, with the figures, the
plot of the last 60 days drawn by the page (inline SVG: no script, no chart library, nothing the
Content-Security-Policy refuses), the games with their replays, and in Bengali with Bengali digits.

The browser's player gets a record written straight into the live site's database (as the CSP
test does): 40 ranked dailies of the last 60 days with a gap, each the player's one entry of its
date (R57, R59), and a nickname so that the best rank shows.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, SCREENSHOTS

pytestmark = pytest.mark.browser

WRITE_RECORD = """
import datetime, json, uuid
from django.utils import timezone
from leaderboards import daily
from leaderboards.boards import refresh_record
from leaderboards.models import DailyDeal, Entry
from players.models import Player
player = Player.objects.get(pk=PLAYER)
player.nickname, player.nickname_key = "Rekord", "rekord-" + str(player.pk)[:8]
player.save()
today = daily.today()
days = [n for n in range(60) if not 4 <= n <= 9 and n % 7 != 3][:40]
for n in days:
    score = 1500 + (n * 733) % 6000 - (900 if n % 5 == 0 else 0)
    other = 2500 + (n * 389) % 3000
    Entry.objects.create(player=player, date=today - datetime.timedelta(days=n), game_id=uuid.uuid4(), score=score,
        opponents_score=other, result="won" if score > other else "lost" if score < other else "draw",
        finished_at=timezone.now())
    if n % 2 == 0 and n > 0:  # a par on every other past day (today's deal is the live daily's: left alone)
        deal, _ = DailyDeal.objects.get_or_create(date=today - datetime.timedelta(days=n), defaults={"seed": n})
        DailyDeal.objects.filter(pk=deal.pk).update(par=3000 + (n * 211) % 2500)
refresh_record(player)
print(json.dumps({"days": len(days), "pars": sum(1 for n in days if n % 2 == 0 and n > 0)}))
"""


def write_record(site, player_id: str) -> dict:
    return json.loads(site.shell(WRITE_RECORD.replace("PLAYER", repr(player_id))))


def test_the_record_page_with_its_plot_from_the_home_page(site, page, make_page):
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(site.url + "/")
    player_id = page.request.get(site.url + "/api/session").json()["player"]["id"]
    written = write_record(site, player_id)

    page.get_by_role("link", name="Your record").click()
    page.wait_for_url(f"{site.url}/record/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your record")
    figures = page.locator(".figures")
    expect(figures.locator("div", has_text="Days played").locator("dd")).to_have_text(str(written["days"]))
    expect(figures.locator("div", has_text="Current streak").locator("dd")).to_have_text("3 days")  # today, 1, 2
    expect(figures.locator("div", has_text="Best rank").locator("dd")).to_have_text("#1")  # alone on those boards
    expect(figures.locator("div", has_text="Average against par").locator("dd")).to_have_text(re.compile(r"^[+−]?\d+$"))

    plot = page.get_by_role("img", name="Your daily scores of the last 60 days")
    expect(plot).to_be_visible()
    assert plot.locator("rect.bar").count() == written["days"]
    assert plot.locator("rect.bar.won").count() + plot.locator("rect.bar.lost").count() == written["days"]
    # A par mark for each day with a par (every other past day, today's too once the site has computed it):
    # as many as the table's days with a score against par, from the same page.
    against = page.locator("table.record-games").first.locator("tbody tr td:nth-child(5)").all_inner_texts()
    assert plot.locator("rect.par").count() == sum(1 for text in against if text.strip()) >= written["pars"]
    heights = plot.locator("rect.bar").evaluate_all("bars => bars.map(b => b.getBBox().height)")
    assert len(set(heights)) > 5 and min(heights) >= 1  # bars drawn to their scores, none invisible
    box = plot.bounding_box()
    assert box and box["width"] > 500 and box["height"] > 120
    rows = page.locator("table.record-games").first.locator("tbody tr")
    expect(rows).to_have_count(written["days"])
    expect(rows.first).to_contain_text("after the day")  # today's daily: no replay yet
    expect(rows.nth(1).get_by_role("link", name="Watch")).to_have_attribute("href", re.compile(r"^/replay/"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("section.record").screenshot(path=str(SCREENSHOTS / "record.png"))
    assert violations == [] and page.foot_errors == []

    # In Bengali, on a phone: the same page with Bengali digits.
    phone = make_page(PHONE, locale="bn-BD", is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.context.add_cookies(page.context.cookies() + [{"name": "django_language", "value": "bn", "url": site.url}])
    phone.goto(site.url + "/record/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("আপনার রেকর্ড")
    days_text = phone.locator(".figures dd").first.inner_text()
    assert days_text == str(written["days"]).translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))
    assert phone.locator(".plot-svg rect.bar").count() == written["days"]
    phone.screenshot(path=str(SCREENSHOTS / "record-phone-bn.png"))


def test_a_new_browser_has_an_empty_record_and_gets_no_player(site, page):
    page.goto(site.url + "/record/")
    expect(page.locator("section.record")).to_contain_text("Nothing here yet")
    assert "sessionid" not in {cookie["name"] for cookie in page.context.cookies()}
