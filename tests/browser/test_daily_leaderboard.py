"""End to end (issue #16, "a whole daily played to the end, with the nickname asked in the
game-over dialog"): real ranked dailies played by clicks to their ends, then what their players
are told, and the board.

Chromium opens the home page and clicks the Daily button, which makes the ranked daily of the
browser's player (R57, R59: dealt from the day's seed, scored by the server's replay of the moves).
All four deals are played at the table page from their real start by clicking, as a person plays
(tests/browser/clicking_player.py: the card buttons, the buttons the page enables from the
server's options, the melds it lights up, Next deal); hints are off in a ranked daily. The `normal`
bots play the other seats at full speed (FOOT_BOT_DELAY=0, testsupport.daphne). Two players do
this side by side (so the module takes the time of about one game): the main one on a 1280×720
laptop, and a second one on a 360×640 phone whom a moderator bans once the game has begun.

Then, for the main player, the game-over dialog as it opened: at its top, the score, the par, no
rank but the nickname asked right there (a refused one, then a good one, after which the rank and
the board link appear), screenshots at laptop and phone size, the board the link leads to with
the player's own row highlighted, a second daily of the date unranked, the replay refused before
the day is over. For the banned player: "Your results are hidden", no form, no rank, and no form
on the board either.

The games are played once, so the checks are one test (its docstring says why not several).
"""

import re
import time
import uuid
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from .clicking_player import ClickingPlayer, Tally, play_together
from .conftest import SCREENSHOTS, new_page

pytestmark = pytest.mark.browser

TABLE_URL = re.compile(r"/g/([0-9a-f-]+)/")
PLAY_SECONDS = 300  # docs/LEADERBOARDS.md has the measured times of two dailies played by clicks
LAPTOP = {"width": 1280, "height": 720}
PHONE_SMALL = {"width": 360, "height": 640}
SOUTH, TEAM, OPPONENTS = "S", "NS", "EW"


# -------------------------------------------------------------------- the finished daily (once per module)


@dataclass
class FinishedDaily:
    page: Page
    game: dict
    result: dict  # the game-over dialog's: deal, totals, title
    tally: Tally
    seconds: float
    nickname: str = field(default_factory=lambda: f"Zoë {uuid.uuid4().int % 10000:04d}")


def open_daily_from_home(page, site, button_name) -> dict:
    page.goto(site.url + "/")
    page.get_by_role("button", name=button_name).click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table[aria-busy=false]")
    opened = TABLE_URL.search(page.url)
    assert opened is not None, f"not a table's address: {page.url}"
    game_id = opened.group(1)
    answer = page.request.get(site.url + f"/api/games/{game_id}")
    assert answer.status == 200, answer.text()
    return answer.json()


def shown_number(text: str) -> int:
    return int(re.sub(r"[^\d-]", "", text.replace("\u2212", "-")))


def against_par(difference: int) -> str:
    """As the page writes it: its own digits, no grouping (static/foot/numbers.js)."""
    if difference > 0:
        return f"{difference} points above the computers' par"
    return f"{-difference} points below the computers' par" if difference else "Level with the computers' par"


def shown_result(page) -> dict:
    """The end of the game as the game-over dialog shows it: the last deal's number, the totals, the title."""
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    totals = [shown_number(cell) for cell in dialog.locator("tfoot tr td").all_inner_texts()]
    return {
        "deal": dialog.locator("#game-over-body > p").first.inner_text(),
        "totals": {TEAM: totals[0], OPPONENTS: totals[1]},
        "title": page.locator("#game-over-title").inner_text(),
    }


def wait_for_entry(page, site, date: str, timeout: float = 10) -> dict:
    """The leaderboard's answer once the entry is in (it is written just after the last move commits)."""
    deadline = time.monotonic() + timeout
    while True:
        board = page.request.get(site.url + f"/api/leaderboard/daily/{date}").json()
        if (board.get("me") or {}).get("played") or time.monotonic() > deadline:
            return board
        time.sleep(0.2)


def run_in_site(site, script: str) -> None:
    """A few lines of Django in the live site's database."""
    site.shell(script)


BAN = """
from django.contrib.auth import get_user_model
from leaderboards.moderation import ban_player
from players.models import Player
moderator, _ = get_user_model().objects.get_or_create(username="browser-moderator", defaults={"is_staff": True})
ban_player(Player.objects.get(pk=PLAYER), moderator, "browser test: banned while playing the daily")
"""


def start_daily(browser, site, size: dict) -> tuple[Page, dict]:
    page = new_page(browser, size)
    game = open_daily_from_home(page, site, "Play today’s game")
    assert (game["mode"], game["ranked"], game["seat"]) == ("daily", True, SOUTH)  # the first daily ranks (R59)
    expect(page.get_by_role("button", name="Hint")).to_be_hidden()  # no hints in a ranked daily
    return page, game


@pytest.fixture
def finished_dailies(site, browser):
    """Two players' ranked dailies of today, clicked to their ends side by side (play_together): the
    main one on a laptop, and one on a small phone whose player a moderator bans once it has begun
    (a ban closes no open table; the game plays on, and its entry is recorded hidden)."""
    page, game = start_daily(browser, site, LAPTOP)
    banned_page, banned_game = start_daily(browser, site, PHONE_SMALL)
    banned_id = banned_page.request.get(site.url + "/api/session").json()["player"]["id"]
    run_in_site(site, BAN.replace("PLAYER", repr(banned_id)))
    players = [ClickingPlayer(page), ClickingPlayer(banned_page)]
    play_together(players, PLAY_SECONDS)
    finished = []
    for player, opened in zip(players, (game, banned_game), strict=True):
        result = shown_result(player.page)
        print(f"\ndaily {opened['id']}: over in {player.seconds:.1f}s by clicks; {result}; {player.tally}")
        finished.append(FinishedDaily(player.page, opened, result, player.tally, player.seconds))
    yield finished
    for player in players:
        player.page.context.close()


# -------------------------------------------------------------------- the tests


def screenshot_both_sizes(page, name: str) -> None:
    """The page with the dialog as a player sees it on a laptop and on a small phone, and on the
    phone once the dialog is scrolled to its end (its links); then back to the laptop."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    dialog = page.locator("#game-over")
    for size, suffix in ((LAPTOP, "laptop"), (PHONE_SMALL, "phone")):
        page.set_viewport_size(size)
        dialog.evaluate("(d) => { d.scrollTop = 0; }")
        page.wait_for_timeout(150)  # a frame to lay the dialog out again
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{suffix}.png"))
    dialog.evaluate("(d) => { d.scrollTop = d.scrollHeight; }")
    page.wait_for_timeout(150)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-phone-end.png"))
    dialog.evaluate("(d) => { d.scrollTop = 0; }")
    page.set_viewport_size(LAPTOP)


def check_the_nickname_asked_in_the_dialog_then_the_rank_and_the_board(site, finished_daily):
    page, game, result, tally = finished_daily.page, finished_daily.game, finished_daily.result, finished_daily.tally
    totals = result["totals"]
    # Four deals make a game (R55): three ended with Next deal pressed, the game-over dialog after the fourth.
    assert (tally.deals_ended, result["deal"]) == (3, "Deal 4")
    assert tally.turns >= 20 and tally.clicks["btn-discard"] >= 20, tally  # South played it, turn by turn
    assert tally.melded >= 5, tally  # South melded by its clicks (the first meld, additions, new melds)

    # The server's own result, from its replay of the moves (R59), is what the dialog shows.
    board = wait_for_entry(page, site, game["daily_date"])
    me = board["me"]
    assert me["played"] and not me["listed"]  # no nickname yet: ranked, but not shown (LEADERBOARDS.md)
    assert (me["score"], me["opponents_score"]) == (totals[TEAM], totals[OPPONENTS])
    winner = "Your team wins!" if totals[TEAM] > totals[OPPONENTS] else "The opponents win."
    assert result["title"] == (winner if totals[TEAM] != totals[OPPONENTS] else "A draw!")  # R56

    # The dialog as it opened at the end of the last deal: the score, the par, no rank (not on the
    # board: no rank is promised) but the nickname form, right there.
    dialog = page.locator("#game-over")
    daily_end = dialog.locator(".daily-end")
    answer = page.request.get(site.url + f"/api/daily/result/{game['id']}").json()
    assert answer["standing"] == "unnamed" and answer["par"] is not None  # the par is computed off the request path
    expect(daily_end.locator(".daily-score")).to_have_text(f"Your score: {totals[TEAM]}")
    expect(daily_end.locator(".daily-par")).to_have_text(
        f"Par: {answer['par']} · {against_par(totals[TEAM] - answer['par'])}"
    )
    expect(daily_end.locator(".rank")).to_have_count(0)
    expect(dialog.get_by_role("button", name="Look back")).to_have_count(0)  # not before the date is over
    field = dialog.get_by_label("Choose a nickname to appear on today's board")
    expect(field).to_be_visible()
    # The dialog is taller than a 720 px laptop screen: it opens at its top, the result in sight.
    for seen in (page.locator("#game-over-title"), daily_end, field):
        expect(seen).to_be_in_viewport()
    screenshot_both_sizes(page, "daily-end-nickname")

    # A nickname with markup is refused (letters, digits, spaces, - and _ only) in the dialog.
    field.fill("<b>Zoë</b>")
    dialog.get_by_role("button", name="Save").click()
    expect(dialog.locator(".nickname-error")).to_contain_text("Use letters, digits, spaces")
    assert dialog.locator(".daily-end b").count() == 0
    assert page.request.get(site.url + "/api/session").json()["player"]["nickname"] is None

    # A good one: the rank and the board link appear.
    nickname = finished_daily.nickname
    field.fill(nickname)
    dialog.get_by_role("button", name="Save").click()
    board = page.request.get(site.url + f"/api/leaderboard/daily/{game['daily_date']}").json()
    expect(daily_end.locator(".rank")).to_have_text(f"Your rank today: {board['me']['rank']}")
    expect(daily_end.get_by_role("link", name="See today's board")).to_be_focused()
    expect(field).to_have_count(0)
    expect(dialog.locator("#share-text")).to_have_value(
        re.compile(rf"rank {board['me']['rank']}\n")
    )  # the share text too
    screenshot_both_sizes(page, "daily-end-ranked")
    daily_end.get_by_role("link", name="See today's board").click()
    page.wait_for_url(re.compile(r"/leaderboard/\d{4}-\d{2}-\d{2}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Daily game of {game['daily_date']}")  # today's board
    expect(page.locator(".leaderboard")).to_contain_text(f"You appear as {nickname}.")

    # Today's board: the row is mine, highlighted, with the server's score.
    board = page.request.get(site.url + f"/api/leaderboard/daily/{game['daily_date']}").json()
    mine = [row for row in board["rows"] if row["me"]]
    assert len(mine) == 1 and mine[0]["nickname"] == nickname and board["me"]["listed"]
    assert (mine[0]["score"], mine[0]["rank"]) == (totals[TEAM], board["me"]["rank"])
    row = page.locator("table.board tbody tr.me")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("aria-current", "true")
    cells = row.locator("td").all_inner_texts()
    headers = page.locator("table.board thead th").all_inner_texts()
    assert cells[1] == nickname
    assert (shown_number(cells[0]), shown_number(cells[2]), shown_number(cells[headers.index("Opponents")])) == (
        mine[0]["rank"],
        totals[TEAM],
        totals[OPPONENTS],
    )
    if board["par"] is not None:  # the par (computed in the server's background) shown to me, who finished
        against, difference = cells[headers.index("Against par")], abs(totals[TEAM] - board["par"])
        assert "par" in against and (
            shown_number(against) == difference if difference else against == "Level with the computers' par"
        )
    assert page.locator("table.board tbody tr").count() == board["count"]
    page.locator("section.leaderboard").screenshot(path=str(SCREENSHOTS / "leaderboard.png"))


LOOKS_OF_A_ROW = """(row) => {
  const other = row.cloneNode(true);
  other.classList.remove("me");
  other.removeAttribute("aria-current");
  row.after(other);
  const looks = (tr) => [...tr.cells].map((td) => {
    const style = getComputedStyle(td);
    return [style.backgroundColor, style.fontWeight, style.color, style.outlineStyle, style.borderLeftStyle].join(" ");
  }).join("|") + getComputedStyle(tr).backgroundColor;
  const result = {mine: looks(row), other: looks(other)};
  other.remove();
  return result;
}"""


def check_my_row_on_the_board_is_highlighted_to_the_eye(site, finished_daily):
    page = finished_daily.page
    page.goto(site.url + "/leaderboard/")
    row = page.locator("table.board tbody tr.me")
    expect(row).to_have_count(1)
    looks = row.evaluate(LOOKS_OF_A_ROW)  # the same row without "me", side by side
    assert looks["mine"] != looks["other"]


@dataclass
class SecondDaily:
    game: dict
    home_text: str  # the home page's daily box just before the click
    table_text: str  # the second table as it opened


def play_a_second_daily(site, finished_daily) -> SecondDaily:
    """Daily clicked again once the ranked one is over."""
    page = finished_daily.page
    page.goto(site.url + "/")
    expect(page.locator("#play-daily")).to_have_text("Play today’s game")  # nothing left to continue
    home_text = page.locator("#modes").inner_text()
    game = open_daily_from_home(page, site, "Play today’s game")
    return SecondDaily(game, home_text, page.locator("#table").inner_text())


def check_a_second_daily_of_the_date_is_unranked(site, finished_daily, second_daily):
    page, first, second = finished_daily.page, finished_daily.game, second_daily.game
    assert second["id"] != first["id"]
    assert (second["mode"], second["daily_date"], second["ranked"]) == ("daily", first["daily_date"], False)
    # The table treats it as unranked: hints are on again (they are off only in a ranked daily).
    page.goto(site.url + second["url"] + "?speed=fast")
    page.wait_for_selector("#table[aria-busy=false]")
    expect(page.get_by_role("button", name="Hint")).to_be_visible()
    board = page.request.get(site.url + f"/api/leaderboard/daily/{first['daily_date']}").json()
    assert board["me"]["played"] and board["me"]["score"] == finished_daily.result["totals"][TEAM]


def check_the_page_says_that_a_second_daily_does_not_count(second_daily):
    assert second_daily.game["ranked"] is False
    says_so = re.compile(r"not (count|ranked)|unranked|practice|already played|won.t count|doesn.t count", re.I)
    assert says_so.search(second_daily.home_text) or says_so.search(second_daily.table_text), second_daily


def check_todays_daily_cannot_be_watched_before_its_day_is_over(site, finished_daily):
    """Its deals are everyone's today: the replay (every hand open) waits for the deadline."""
    page = finished_daily.page
    answer = page.goto(site.url + f"/replay/{finished_daily.game['id']}/")
    assert answer.status == 403
    expect(page.get_by_role("heading", level=1)).to_have_text("This game cannot be watched yet")
    expect(page.get_by_role("alert")).to_contain_text("once its day is over, after 00:10 UTC on")
    assert page.locator("#table").count() == 0  # nothing of the game is drawn


def check_a_banned_player_is_told_their_results_are_hidden_and_offered_no_form(site, banned_daily):
    """Issue #16, "The end of a daily": the player banned while playing finishes the daily; the
    game-over dialog (as it opened, on the phone) says the results are hidden and offers nothing."""
    page, game, result = banned_daily.page, banned_daily.game, banned_daily.result
    assert (banned_daily.tally.deals_ended, result["deal"]) == (3, "Deal 4")  # a whole game, by clicks
    answer = page.request.get(site.url + f"/api/daily/result/{game['id']}").json()
    assert answer["standing"] == "hidden" and answer["rank"] is None
    daily_end = page.locator("#game-over .daily-end")
    expect(daily_end.locator(".hidden-note")).to_have_text("Your results are hidden from the boards.")
    expect(daily_end.locator(".daily-score")).to_have_text(f"Your score: {result['totals'][TEAM]}")
    expect(daily_end.locator("form, input, .rank, .board-link")).to_have_count(0)  # no nickname form, no rank
    for seen in (page.locator("#game-over-title"), daily_end):  # a 360×640 phone: the dialog opens at its top
        expect(seen).to_be_in_viewport()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "daily-end-hidden-phone.png"))
    # Reloaded, the table is refused to a banned player: it says why, not "Connecting…" for ever.
    page.goto(site.url + game["url"] + "?speed=fast")
    expect(page.locator("#message")).to_have_text("This player may not play.")
    expect(page.locator("#turn-banner")).to_have_text("")
    page.goto(site.url + f"/leaderboard/{game['daily_date']}/")
    expect(page.locator("form.nickname")).to_have_count(0)  # nor on the board
    expect(page.locator("table.board tbody tr.me")).to_have_count(0)


def test_two_whole_dailies_played_by_clicks_and_what_their_players_are_told(site, finished_dailies):
    """One test, the checks in order: the module's tests shared a module fixture (the two games)
    and an xdist group, but pytest-xdist 3.8's `--dist loadgroup` groups nothing under pytest 9
    (it renames `item._nodeid`, which pytest 9 no longer reads), so under `make test` each
    worker that ran one of them played both games again."""
    main, banned = finished_dailies
    check_the_nickname_asked_in_the_dialog_then_the_rank_and_the_board(site, main)
    check_my_row_on_the_board_is_highlighted_to_the_eye(site, main)
    second = play_a_second_daily(site, main)
    check_a_second_daily_of_the_date_is_unranked(site, main, second)
    check_the_page_says_that_a_second_daily_does_not_count(second)
    check_todays_daily_cannot_be_watched_before_its_day_is_over(site, main)
    check_a_banned_player_is_told_their_results_are_hidden_and_offered_no_form(site, banned)
