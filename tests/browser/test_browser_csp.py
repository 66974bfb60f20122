"""The Content-Security-Policy holds on every page (issue #18): each page of the site (home, table,
join, rules, the boards, a replay and the replay viewer) carries the header, and the browser reports no violation
while it loads and runs it (`securitypolicyviolation` events and console CSP errors)."""

import datetime
import json

import pytest

from server.csp import DEFAULT_POLICY

pytestmark = pytest.mark.browser

LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
YESTERDAY_DAILY = """
import datetime
from games.models import Game, Move
from leaderboards import daily
from players.models import Player
from tests.leaderboards.lb_support import play_to_the_end
day = daily.today() - datetime.timedelta(days=1)
player = Player.objects.create(nickname="Csp", nickname_key="csp")
seed = daily.daily_seed(day)
log = play_to_the_end(seed)
game = Game.objects.create(mode="daily", daily_date=day, ranked=True, seed=seed, status="finished", version=len(log),
    initial_position=daily.dealt_from(seed),
    seats={"S": {"player": str(player.pk)}, "W": {"bot": "normal"}, "N": {"bot": "normal"}, "E": {"bot": "normal"}},
    host=player)
Move.objects.bulk_create([Move(game=game, seq=i + 1, seat=s, action=a) for i, (s, a) in enumerate(log)])
late = datetime.datetime.combine(day, datetime.time(23), tzinfo=datetime.timezone.utc)  # played during its date
for seq in range(1, len(log) + 1):
    Move.objects.filter(game=game, seq=seq).update(created=late - datetime.timedelta(seconds=2 * (len(log) - seq)))
daily.on_game_finished(game)
print(game.pk)
"""


def yesterdays_replay(site) -> str:
    """A ranked daily of yesterday, finished and on the board, written into the live site's database."""
    return site.shell(YESTERDAY_DAILY)


def new_game(page, site, mode: str) -> dict:
    token = page.request.get(site.url + "/api/session").json()["csrf"]
    answer = page.request.post(
        site.url + "/api/games",
        data=json.dumps({"mode": mode, "level": "easy"}),
        headers={"Content-Type": "application/json", "X-CSRFToken": token},
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def visit(page, url: str, ready: str = "body") -> None:
    response = page.goto(url)
    assert response.status == 200, url
    assert response.headers.get("content-security-policy") == DEFAULT_POLICY, url
    page.wait_for_selector(ready)
    page.wait_for_timeout(300)  # let the page's modules run and draw


def test_no_page_of_the_site_breaks_the_content_security_policy(page, site):
    console_errors = []
    page.on(
        "console",
        lambda message: console_errors.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.context.add_init_script(LISTEN)
    visit(page, site.url + "/")
    solo = new_game(page, site, "solo")
    lobby = new_game(page, site, "friends")
    replay_id = yesterdays_replay(site)
    yesterday = (datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=1)).isoformat()
    pages = [
        ("/", "body"),
        (solo["url"], "#table[aria-busy=false]"),
        (f"/join/{lobby['code']}/", "body"),
        ("/rules/", "body"),
        ("/leaderboard/", "body"),
        ("/leaderboard/week/", "body"),
        ("/leaderboard/all/", "body"),
        (f"/leaderboard/{yesterday}/", "body"),
        (f"/leaderboard/replay/{replay_id}/?step=5", "body"),
        (f"/replay/{replay_id}/?step=40", "#table[aria-busy=false]"),
    ]
    for path, ready in pages:
        visit(page, site.url + path, ready)
        assert page.evaluate("window.__cspViolations") == [], path
    assert console_errors == []
    assert page.foot_errors == []
