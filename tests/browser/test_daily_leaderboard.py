"""End to end: a real ranked daily played to its end, then the player's row on today's board.

Chromium opens the home page and clicks the Daily button, which makes the ranked daily of the
browser's player (R57, R59: dealt from the day's seed, scored by the server's replay of the moves).
South's moves are then played through a second websocket of the same session (the browser's
session cookie, the site's Origin) by a simple legal policy read from the view's options, with a
version on every action and a resync after any error; the `normal` bots play the other seats.
Back in the browser: the end-of-game dialog with the score and the nickname asked there (a refused
one, then a good one, after which the rank and the board link appear), and the player's own row
on today's board with the score the server computed. A second daily of the date is unranked.

The game is played once per module (a fixture) and shared by the tests, which therefore run in one
xdist group.
"""

import itertools
import json
import re
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import jsonpatch
import pytest
from playwright.sync_api import Page, expect
from websockets.sync import client as ws_client

from .conftest import DESK, SCREENSHOTS, new_page

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("daily_leaderboard")]

TABLE_URL = re.compile(r"/g/([0-9a-f-]+)/")
PLAY_SECONDS = 300  # measured: ~720 versions in 99 s with the machine at load 15-19 (2 cores); far less when idle
SOUTH, TEAM, OPPONENTS = "S", "NS", "EW"
NATURAL_RANKS = "456789TJQKA"
BLACK_THREES = ("3C", "3S")


# -------------------------------------------------------------------- South's policy (from the view)


def card_value(card: str) -> int:
    from games.engine import card_points

    return card_points(card)


def is_wild(card: str) -> bool:
    return card == "JK" or card[0] == "2"


def is_natural(card: str) -> bool:
    return card != "JK" and card[0] in NATURAL_RANKS


def cards_held(view) -> list[str]:
    return [code for code, count in sorted(view["hand"].items()) for _ in range(count)]


def naturals_by_rank(view) -> dict[str, list[str]]:
    ranks: dict[str, list[str]] = {}
    for card in cards_held(view):
        if is_natural(card):
            ranks.setdefault(card[0], []).append(card)
    return ranks


def first_meld(view) -> dict | None:
    """Every natural group of 3 or more (R15), then pairs with one wild card, up to the minimum (R37)."""
    minimum = view["options"]["minimum"]
    spare_wilds = [card for card in cards_held(view) if is_wild(card)]
    ranks = naturals_by_rank(view)
    groups = [cards[:7] for cards in ranks.values() if len(cards) >= 3]
    total = sum(card_value(card) for group in groups for card in group)
    pairs = sorted((cards for cards in ranks.values() if len(cards) == 2), key=lambda pair: -card_value(pair[0]))
    for pair in pairs:
        if total >= minimum or not spare_wilds:
            break
        wild = spare_wilds.pop()
        groups.append(pair + [wild])  # two naturals and one wild: the ratio of R15 holds
        total += 2 * card_value(pair[0]) + card_value(wild)
    if not groups or total < minimum:
        return None
    return {"type": "meld", "groups": [{"cards": group} for group in groups]}


def later_melds(view) -> list[dict]:
    """Once down (R41): natural additions the options offer (R21), then new natural melds (R20)."""
    ranks = naturals_by_rank(view)
    actions = [
        {"type": "meld", "groups": [{"cards": ranks[rank], "to": rank}]}
        for rank in view["options"]["add_to"]
        if rank in ranks
    ]
    started = {meld["rank"] for meld in view["melds"][TEAM].values() if meld["status"] == "incomplete"}
    actions += [
        {"type": "meld", "groups": [{"cards": cards[:7]}]}
        for rank, cards in ranks.items()
        if rank not in started and len(cards) >= 3
    ]
    return actions


def discard_order(view) -> list[str]:
    """Black threes first (R36: no other way out), then the loneliest, cheapest naturals, wild cards last."""
    counts = Counter(cards_held(view))
    naturals = sorted(
        (card for card in counts if is_natural(card)), key=lambda card: (counts[card], card_value(card), card)
    )
    return [card for card in BLACK_THREES if counts[card]] + naturals + sorted(card for card in counts if is_wild(card))


def south_action(view, check) -> dict:
    """South's next action: draw, a meld that `check` accepts, or a discard.

    A discard from the hand is always legal (R25); in the foot R47 may refuse one, so there each
    candidate is checked first. Checking only where a refusal is possible keeps the socket well
    under the server's 10 frames a second.
    """
    options = view["options"]
    if options["draw"]:
        return {"type": "draw"}
    candidates = [first_meld(view)] if options["minimum"] > 0 else later_melds(view)
    for action in filter(None, candidates):
        if check(action)["ok"]:
            return action
    in_foot = view["seats"][SOUTH]["in_foot"]
    for card in discard_order(view):
        action = {"type": "discard", "card": card}
        if not in_foot or check(action)["ok"]:
            return action
    raise AssertionError(f"South has no legal discard: {view['hand']}")


# -------------------------------------------------------------------- South's websocket


class Pace:
    """A client-side token bucket below the server's (FOOT_WS_RATE 10/s, FOOT_WS_BURST 30): never closed 4008."""

    def __init__(self, rate: float = 8, burst: float = 20):
        self.rate, self.capacity, self.tokens, self.stamp = rate, burst, burst, time.monotonic()

    def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.stamp = 1, time.monotonic()
        self.tokens -= 1


@dataclass
class SouthSocket:
    """South's second socket: keeps the view in step (state, patches by version) and plays."""

    ws: ws_client.ClientConnection
    view: dict | None = None
    v: int | None = None
    pace: Pace = field(default_factory=Pace)
    refs: itertools.count = field(default_factory=lambda: itertools.count(1))
    sent: Counter = field(default_factory=Counter)
    errors: list = field(default_factory=list)
    syncs: int = 0

    def send(self, message: dict) -> None:
        self.pace.wait()
        self.sent[message["type"]] += 1
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 30) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        handler = getattr(self, "on_" + message["type"], None)
        if handler:
            handler(message)
        return message

    def on_state(self, message: dict) -> None:
        self.view, self.v = message["view"], message["v"]
        if SOUTH in message["awaiting"]:
            self.send({"type": "next_deal"})

    def on_patch(self, message: dict) -> None:
        if self.v is None or message["v"] != self.v + 1:
            self.resync()  # a gap in the versions: a lost message
            return
        self.view, self.v = jsonpatch.apply_patch(self.view, message["ops"]), message["v"]
        kinds = {event["type"] for event in message["events"]}
        if "deal_end" in kinds and "game_over" not in kinds:
            self.send({"type": "next_deal"})  # South saw the score: the bots may deal on

    def on_error(self, message: dict) -> None:
        self.errors.append(message)
        if message["code"] != "stale_version":  # after stale_version the server sends a state itself
            self.resync()

    def resync(self) -> None:
        self.syncs += 1
        self.v = None
        self.send({"type": "sync"})

    def request(self, message: dict) -> dict:
        """Send with a fresh ref; the answer carrying it (checked, patch or error)."""
        message["ref"] = f"t{next(self.refs)}"
        self.send(message)
        while True:
            answer = self.receive()
            if answer.get("ref") == message["ref"] and answer["type"] in ("checked", "patch", "error"):
                return answer

    def check(self, action: dict) -> dict:
        return self.request({"type": "check", "action": action})

    def my_turn(self) -> bool:
        if self.view is None or self.v is None:
            return False
        options = self.view["options"]
        return bool(options and self.view["turn"] == SOUTH and (options["draw"] or options["meld"]))

    def play_to_the_end(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.view is None or self.view["phase"] != "over":
            assert time.monotonic() < deadline, f"the game is not over after {seconds}s (v{self.v})"
            if self.my_turn():
                self.request({"type": "action", "action": south_action(self.view, self.check), "v": self.v})
            else:
                self.receive()


def session_cookie_header(context, url: str) -> str:
    cookies = {cookie["name"]: cookie["value"] for cookie in context.cookies(url)}
    assert "sessionid" in cookies, "the browser has no session yet"
    return f"sessionid={cookies['sessionid']}"


def play_as_south(site, context, game_id: str) -> tuple[SouthSocket, float]:
    uri = site.url.replace("http://", "ws://") + f"/ws/game/{game_id}/"
    started = time.monotonic()
    with ws_client.connect(
        uri,
        origin=site.url,
        additional_headers={"Cookie": session_cookie_header(context, site.url)},
        max_size=2**22,
        open_timeout=10,
    ) as ws:
        south = SouthSocket(ws)
        south.receive()  # the state on connect
        assert south.view is not None, "the first message was not the state"
        assert south.view["seat"] == SOUTH, "the second socket did not get the browser player's seat"
        south.play_to_the_end(PLAY_SECONDS)
    return south, time.monotonic() - started


# -------------------------------------------------------------------- the finished daily (once per module)


@dataclass
class FinishedDaily:
    page: Page
    game: dict
    view: dict
    south: SouthSocket
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


def wait_for_entry(page, site, date: str, timeout: float = 10) -> dict:
    """The leaderboard's answer once the entry is in (it is written just after the last move commits)."""
    deadline = time.monotonic() + timeout
    while True:
        board = page.request.get(site.url + f"/api/leaderboard/daily/{date}").json()
        if (board.get("me") or {}).get("played") or time.monotonic() > deadline:
            return board
        time.sleep(0.2)


@pytest.fixture(scope="module")
def finished_daily(site, browser):
    page = new_page(browser, DESK)
    game = open_daily_from_home(page, site, "Play today’s game")
    assert (game["mode"], game["ranked"], game["seat"]) == ("daily", True, SOUTH)  # the first daily ranks (R59)
    page.goto(site.url + "/rules/")  # the table is reloaded at the end; it need not draw 700 moves meanwhile
    south, seconds = play_as_south(site, page.context, game["id"])
    print(
        f"\ndaily {game['id']}: over at v{south.v} in {seconds:.1f}s; sent {dict(south.sent)}; "
        f"errors {[e['code'] for e in south.errors]}; syncs {south.syncs}"
    )
    assert south.view is not None  # play_as_south played it to the end
    yield FinishedDaily(page, game, south.view, south, seconds)
    page.context.close()


# -------------------------------------------------------------------- the tests


def choose_nickname(page, nickname: str) -> None:
    """The way a player does it: the form under the board, which posts and comes back to the board."""
    form = page.locator("form.nickname")
    form.get_by_label("Choose a nickname to appear on the boards").fill(nickname)
    form.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/leaderboard/$"))


def shown_number(text: str) -> int:
    return int(re.sub(r"[^\d-]", "", text.replace("\u2212", "-")))


def test_a_finished_daily_ranks_under_the_chosen_nickname_on_todays_board(site, finished_daily):
    page, game, view = finished_daily.page, finished_daily.game, finished_daily.view
    totals = view["scores"]["totals"]
    assert view["phase"] == "over" and len(view["scores"]["deals"]) == 4  # four deals make a game (R55)
    assert not [error for error in finished_daily.south.errors if error["code"] != "stale_version"]

    # The server's own result, from its replay of the moves (R59): the game's final totals.
    board = wait_for_entry(page, site, game["daily_date"])
    me = board["me"]
    assert me["played"] and not me["listed"]  # no nickname yet: ranked, but not shown (LEADERBOARDS.md)
    assert (me["score"], me["opponents_score"]) == (totals[TEAM], totals[OPPONENTS])

    # The table, reloaded, shows the end of the game: the score, and (no nickname yet) no rank but
    # the nickname form, right there in the dialog.
    page.goto(site.url + game["url"] + "?speed=fast")
    dialog = page.locator("#game-over")
    expect(dialog).to_be_visible()
    winner = {"NS": "Your team wins!", "EW": "The opponents win.", "draw": "A draw!"}[view["winner"]]
    expect(page.locator("#game-over-title")).to_have_text(winner)
    game_total = dialog.locator("tfoot tr td")
    assert [shown_number(cell) for cell in game_total.all_inner_texts()] == [totals[TEAM], totals[OPPONENTS]]
    daily_end = dialog.locator(".daily-end")
    expect(daily_end.locator(".daily-score")).to_contain_text(f"Your score: {totals[TEAM]}")
    expect(daily_end.locator(".rank")).to_have_count(0)  # not on the board: no rank is promised
    field = dialog.get_by_label("Choose a nickname to appear on today's board")
    expect(field).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    dialog.screenshot(path=str(SCREENSHOTS / "daily-end-nickname.png"))

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
    dialog.screenshot(path=str(SCREENSHOTS / "daily-end-ranked.png"))
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
        assert "par" in against and (shown_number(against) == difference if difference else against == "On par")
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


def test_my_row_on_the_board_is_highlighted_to_the_eye(site, finished_daily):
    page = finished_daily.page
    page.goto(site.url + "/leaderboard/")
    if page.locator("form.nickname").count():  # run on its own: the main test did not name the player
        choose_nickname(page, finished_daily.nickname)
    row = page.locator("table.board tbody tr.me")
    expect(row).to_have_count(1)
    looks = row.evaluate(LOOKS_OF_A_ROW)  # the same row without "me", side by side
    assert looks["mine"] != looks["other"]


@dataclass
class SecondDaily:
    game: dict
    home_text: str  # the home page's daily box just before the click
    table_text: str  # the second table as it opened


@pytest.fixture(scope="module")
def second_daily(site, finished_daily) -> SecondDaily:
    """Daily clicked again once the ranked one is over (once, whichever test asks first)."""
    page = finished_daily.page
    page.goto(site.url + "/")
    expect(page.locator("#play-daily")).to_have_text("Play today’s game")  # nothing left to continue
    home_text = page.locator("#modes").inner_text()
    game = open_daily_from_home(page, site, "Play today’s game")
    return SecondDaily(game, home_text, page.locator("#table").inner_text())


def test_a_second_daily_of_the_date_is_unranked(site, finished_daily, second_daily):
    page, first, second = finished_daily.page, finished_daily.game, second_daily.game
    assert second["id"] != first["id"]
    assert (second["mode"], second["daily_date"], second["ranked"]) == ("daily", first["daily_date"], False)
    # The table treats it as unranked: hints are on again (they are off only in a ranked daily).
    page.goto(site.url + second["url"] + "?speed=fast")
    page.wait_for_selector("#table[aria-busy=false]")
    expect(page.get_by_role("button", name="Hint")).to_be_visible()
    board = page.request.get(site.url + f"/api/leaderboard/daily/{first['daily_date']}").json()
    assert board["me"]["played"] and board["me"]["score"] == finished_daily.view["scores"]["totals"][TEAM]


def test_the_page_says_that_a_second_daily_does_not_count(second_daily):
    assert second_daily.game["ranked"] is False
    says_so = re.compile(r"not (count|ranked)|unranked|practice|already played|won.t count|doesn.t count", re.I)
    assert says_so.search(second_daily.home_text) or says_so.search(second_daily.table_text), second_daily


def test_todays_daily_cannot_be_watched_before_its_day_is_over(site, finished_daily):
    """Its deals are everyone's today: the replay (every hand open) waits for the deadline."""
    page = finished_daily.page
    answer = page.goto(site.url + f"/replay/{finished_daily.game['id']}/")
    assert answer.status == 403
    expect(page.get_by_role("heading", level=1)).to_have_text("This game cannot be watched yet")
    expect(page.get_by_role("alert")).to_contain_text("once its day is over, after 00:10 UTC on")
    assert page.locator("#table").count() == 0  # nothing of the game is drawn
