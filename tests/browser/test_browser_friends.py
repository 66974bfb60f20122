"""Friends at one table in the browser (issue 15), two and three browser contexts on one real
Daphne: names both ways, the live lobby and the friend's waiting room, a seat change, a third
person who watches and then joins, the away countdown and the computer taking over (a short
FOOT_AWAY_GRACE_SECONDS on this test's own Daphne), and the friend's return with the recap."""

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from games.rooms.recap import RECAP_MOVES
from testsupport.daphne import server_env

from .conftest import DESK, PHONE, ROOT, SCREENSHOTS, LiveSite, hand, new_page

pytestmark = pytest.mark.browser

TABLE_URL = re.compile(r"/g/[0-9a-f-]+/")
GRACE = 6
LAPTOP = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def friends_site(tmp_path_factory):
    """A Daphne of its own: the grace is a few seconds, so the countdown ends within the test."""
    folder = tmp_path_factory.mktemp("friends-site")
    database_url = f"sqlite:///{folder / 'db.sqlite3'}"
    env = server_env(database_url, FOOT_AWAY_GRACE_SECONDS=GRACE, FOOT_BOT_DELAY=0.2)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    live = LiveSite(env, folder / "daphne.log").start(timeout=40)
    yield live
    live.stop()


@pytest.fixture
def people(browser):
    made = []

    def person(nickname=None, site=None, size=DESK):
        page = new_page(browser, size)
        made.append(page)
        if nickname:
            page.goto(site.url + "/rules/")
            token = page.request.get(site.url + "/api/session").json()["csrf"]
            answer = page.request.post(
                site.url + "/api/nickname",
                data=json.dumps({"nickname": nickname}),
                headers={"Content-Type": "application/json", "X-CSRFToken": token},
            )
            assert answer.status == 200, answer.text()
        return page

    yield person
    for page in made:
        page.context.close()


def open_lobby(host, site) -> str:
    host.goto(site.url + "/")
    host.get_by_role("button", name="Open a table").click()
    host.wait_for_url(TABLE_URL)
    expect(host.locator("#lobby-title")).to_have_text("Your table")
    return host.locator("#lobby-link").input_value()


def join(friend, invite):
    friend.goto(invite)
    friend.get_by_role("button", name="Join the table").click()
    friend.wait_for_url(TABLE_URL)
    expect(friend.locator("#lobby-title")).to_be_visible()


def seat_line(page, seat):
    return page.locator(f'#lobby li[data-seat="{seat}"]')


def shot(page, name):
    page.screenshot(path=str(SCREENSHOTS / name))


def shots(page, name):
    """`name`-laptop.png (1280×720) and `name`-phone.png (390×844); the page keeps the laptop size."""
    for size, suffix in ((LAPTOP, "laptop"), (PHONE, "phone"), (LAPTOP, None)):
        page.set_viewport_size(size)
        if suffix:
            page.wait_for_timeout(300)  # the layout settles
            shot(page, f"{name}-{suffix}.png")


def version(page) -> int:
    return int(page.evaluate("window.footTable.model.v"))


def play_a_turn(page):
    """South's turn as a person plays it: Draw 2, then discard the first card of the hand."""
    page.wait_for_function("window.footTable.model.view.turn === 'S' && !window.footTable.ui.pending", timeout=20000)
    drawn = version(page) + 1
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function(f"window.footTable.model.v >= {drawn}")
    page.locator("#hand button.card").first.click()
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function(f"window.footTable.model.v > {drawn}")


def test_the_lobby_names_both_ways_waiting_room_seat_change_and_a_third_who_joins(friends_site, people):
    site = friends_site
    alice, bob, carol = people("Alice", site), people("Bob", site), people(None, site, PHONE)
    invite = open_lobby(alice, site)
    assert re.search(r"/join/[A-Z0-9]{6}/$", invite)
    code = invite.rstrip("/").rsplit("/", 1)[1]
    expect(alice.locator("#lobby-code")).to_have_text(code)  # the code stays on screen too
    expect(alice.get_by_role("button", name="Copy link")).to_be_visible()
    expect(seat_line(alice, "S")).to_contain_text("You (host)")

    join(bob, invite)
    expect(bob.locator("#lobby-title")).to_have_text("Waiting for the host to start")
    # The friend's waiting room: no game button, no hand, no Start.
    assert bob.locator("#controls").is_hidden() and bob.locator("#hand").is_hidden()
    assert bob.get_by_role("button", name="Start the game").count() == 0
    assert bob.get_by_role("button", name="Draw 2").is_hidden()
    expect(seat_line(bob, "S")).to_contain_text("Alice (host)")
    bob_seat = bob.evaluate("window.footTable.model.seat")
    # Live on the host's page, seat by seat: Bob is there, and here.
    expect(seat_line(alice, bob_seat)).to_contain_text("Bob")
    expect(seat_line(alice, bob_seat)).to_contain_text("here")

    # Bob moves to East: both pages show it at once.
    seat_line(bob, "E").get_by_role("button", name="Sit here").click()
    expect(seat_line(alice, "E")).to_contain_text("Bob")
    expect(seat_line(bob, "E")).to_contain_text("You")
    if bob_seat != "E":
        expect(seat_line(alice, bob_seat)).to_contain_text("Free seat")

    # Carol opens the table's own address: she watches, with a Join on each free seat.
    carol.goto(alice.url)
    expect(carol.locator("#lobby-title")).to_have_text("You are watching this table")
    assert carol.locator("#lobby [data-join]").count() == 2
    shot(carol, "friends-lobby-watching.png")
    seat_line(carol, "N").get_by_role("button", name="Join").click()
    expect(carol.locator("#lobby-title")).to_have_text("Waiting for the host to start")
    expect(seat_line(alice, "N")).to_contain_text("Friend")  # no nickname
    shot(alice, "friends-lobby-host.png")
    shot(bob, "friends-lobby-waiting.png")

    alice.get_by_role("button", name="Start the game").click()
    for page in (alice, bob, carol):
        page.wait_for_selector("#hand .card")  # dealt
        expect(page.locator("#lobby")).to_be_hidden()
    assert hand(bob).count() == 13 and hand(carol).count() == 13
    # Names both ways, and the computer named as such (R5: S and N partners).
    expect(alice.locator('[data-seat="E"] .seat-name')).to_have_text(re.compile(r"Bob \(East\)"))
    expect(alice.locator('[data-seat="N"] .seat-name')).to_have_text(re.compile(r"Friend \(North, partner\)"))
    expect(alice.locator('[data-seat="W"] .seat-name')).to_have_text(re.compile(r"West \(computer\)"))
    expect(bob.locator('[data-seat="S"] .seat-name')).to_have_text(re.compile(r"Alice \(South\)"))
    expect(bob.locator('[data-seat="W"] .seat-name')).to_have_text(re.compile(r"West \(computer partner\)"))
    expect(carol.locator('[data-seat="S"] .seat-name')).to_have_text(re.compile(r"Alice \(South, partner\)"))
    expect(bob.locator("#turn-banner")).to_have_text(re.compile("Alice"))
    shot(bob, "friends-table-names.png")
    for page in (alice, bob, carol):
        assert page.foot_errors == []


# A finished game as the server's state would tell it (the end itself is played in test_browser_play).
GAME_OVER = """() => {
  const m = window.footTable.model;
  const score = {NS: {total: 100}, EW: {total: 900}};
  window.footTable.receive({type: "state", v: m.v, seat: m.seat, mode: m.mode, ranked: false, status: "finished",
    awaiting: [], host: m.host, code: m.code,
    view: {...m.view, phase: "over", winner: "EW", turn: null, scores: {deals: [score], totals: {NS: 100, EW: 900}}},
    seats: Object.fromEntries(Object.entries(m.players).map(([seat, player]) => [seat, player.kind])),
    names: Object.fromEntries(Object.entries(m.players).filter(([, p]) => p.kind !== "bot")
      .map(([s, p]) => [s, p.name]))});
}"""


def test_a_watcher_the_away_countdown_the_takeover_and_the_return_with_the_recap(friends_site, people):
    site = friends_site
    ada, ben, carol = people("Ada", site, LAPTOP), people("Ben", site, LAPTOP), people(None, site)
    invite = open_lobby(ada, site)
    join(ben, invite)
    seat_line(ben, "W").get_by_role("button", name="Sit here").click()  # West plays right after South (R6)
    expect(seat_line(ada, "W")).to_contain_text("Ben")
    ada.get_by_role("button", name="Start the game").click()
    ada.wait_for_selector("#hand .card")
    ben.wait_for_selector("#hand .card")
    table_url = ada.url

    # Carol watches: told so, teams by their seats, no hand and no game button.
    carol.goto(table_url)
    carol.wait_for_selector("#table[aria-busy=false]")
    expect(carol.locator("#watching")).to_have_text("You are watching")
    expect(carol.locator("#team-us-title")).to_have_text("North–South: melds")
    expect(carol.locator("#team-them-title")).to_have_text("East–West: melds")
    expect(carol.locator("#status h2")).to_have_text("North–South")
    assert carol.locator("#hand").is_hidden() and carol.locator("#controls").is_hidden()
    status = carol.locator("#status").inner_text()
    assert "Your team" not in status and "Us" not in status.split() and "Them" not in status.split()
    expect(carol.locator('[data-seat="W"] .seat-name')).to_have_text(re.compile(r"Ben \(West\)"))
    shot(carol, "friends-watching.png")

    # Ada plays her turn; on his own turn Ben closes his page (R6: West plays after South).
    play_a_turn(ada)
    ben.wait_for_function("window.footTable.model.view.turn === 'W'")
    left_at = version(ada)
    ben.close()
    # Everyone else sees the countdown from the server's deadline, above the table and in Ben's box.
    countdown = re.compile(r"Ben is away — the computer plays for Ben in 0:0[0-6]")
    ben_box = ada.locator('section.seat[data-seat="W"]')
    expect(ada.locator("#away-notes")).to_have_text(countdown)
    expect(ben_box.locator(".presence")).to_have_text(countdown)
    expect(carol.locator("#away-notes")).to_have_text(countdown)
    expect(carol.locator('section.seat[data-seat="W"] .presence')).to_have_text(countdown)
    first = ben_box.locator(".presence").inner_text()
    ada.wait_for_timeout(1200)
    assert ben_box.locator(".presence").inner_text() != first, "the seat box counts down too"
    assert "Disconnected" not in ben_box.inner_text()
    shots(ada, "friends-away-countdown")
    taken = "The computer is playing for Ben"
    expect(ben_box.locator(".presence")).to_have_text(taken, timeout=GRACE * 1000 + 5000)
    expect(ada.locator("#away-notes")).to_contain_text(taken)
    expect(carol.locator('section.seat[data-seat="W"] .presence')).to_have_text(taken)
    assert "Disconnected" not in ben_box.inner_text() and "Disconnected" not in carol.locator("#table").inner_text()
    expect(ada.locator("#log")).to_contain_text("Ben (West)", timeout=15000)  # the computer played West's turn
    shot(ada, "friends-away-takeover.png")
    # Ada plays on: more moves than the recap tells, so its first line counts the earlier ones.
    while version(ada) <= left_at + RECAP_MOVES + 4:
        play_a_turn(ada)

    # Ben opens the link again (the same browser): his seat, and what happened meanwhile.
    back = ben.context.new_page()
    back.foot_errors = []
    back.on("pageerror", lambda error: back.foot_errors.append(str(error)))
    back.goto(table_url)
    back.wait_for_selector("#table[aria-busy=false]")  # his hand may be empty: the computer melded it
    assert back.evaluate("window.footTable.model.seat") == "W"
    recap = back.locator("#recap")
    expect(recap).to_be_visible()
    expect(recap.locator("h2")).to_have_text("While you were away")
    lines = recap.locator("li").all_inner_texts()
    assert re.fullmatch(r"… and \d+ earlier moves", lines[0]), lines
    assert len(lines) > RECAP_MOVES // 2, lines  # about one line a move
    assert any(line.startswith("Ada (South) drew 2 cards") for line in lines), lines
    assert any(line.startswith("You drew") for line in lines), lines  # the computer's moves for Ben's seat
    assert not any(re.search(r"Ada \(South\) drew [^0-9]", line) for line in lines), "a drawn card shown"
    shots(back, "friends-return-recap")
    back.get_by_role("button", name="Back to the table").click()
    expect(recap).to_be_hidden()
    expect(ada.locator("#away-notes")).to_be_hidden(timeout=15000)  # Ben plays his own seat again

    # Ben's personal link on another device gets the seat too; it is told the seat is open twice.
    token = back.request.get(site.url + "/api/session").json()["csrf"]
    link = back.request.post(site.url + "/api/link", headers={"X-CSRFToken": token}).json()["url"]
    phone = people(None, site)
    phone.goto(link if link.startswith("http") else site.url + link)
    phone.get_by_role("button", name="Continue as Ben").click()
    expect(phone.locator("h1")).not_to_contain_text("Continue as")
    phone.goto(table_url)
    phone.wait_for_selector("#table[aria-busy=false]")  # his hand may be empty: the computer melded it
    assert phone.evaluate("window.footTable.model.seat") == "W"
    expect(phone.locator("#message")).to_contain_text("also open in another tab or device")
    assert back.evaluate("window.footTable.model.seat") == "W"  # nothing else changed

    # The score dialogs name the players; someone watching reads the teams by their seats.
    carol.evaluate(GAME_OVER)
    expect(carol.locator("#game-over-title")).to_have_text("East–West wins!")
    heads = carol.locator("#game-over .team-head").all_inner_texts()
    assert "North–South" in heads[0] and "Ada (South)" in heads[0] and "North (computer)" in heads[0], heads
    assert "East–West" in heads[1] and "Ben (West)" in heads[1], heads
    ada.evaluate(GAME_OVER)
    heads = ada.locator("#game-over .team-head").all_inner_texts()
    assert "Your team" in heads[0] and "You" in heads[0] and "Ben (West)" in heads[1], heads
    for page in (ada, back, carol, phone):
        assert page.foot_errors == []


def test_a_daily_cannot_be_watched_before_its_date_is_over(friends_site, people):
    site = friends_site
    alice, carol = people(None, site), people(None, site)
    alice.goto(site.url + "/")
    alice.get_by_role("button", name="Play today’s game").click()
    alice.wait_for_url(TABLE_URL)
    carol.goto(alice.url)
    expect(carol.locator("h1")).to_have_text("This daily game cannot be watched yet")
    expect(carol.get_by_role("alert")).to_contain_text("once its date is over")


def test_a_friend_joins_by_the_code_box_and_each_page_shows_the_others_name_at_once(friends_site, people):
    """Issue 29 item 8: the home page's code box (a bad code is said and changes nothing; Enter
    joins), /join/ with the same box, and a name box for each person in the lobby (Enter saves,
    the daily's nickname rules), each name pushed to the other's page without a reload."""
    site = friends_site
    host, friend, third = people(None, site), people(None, site, PHONE), people(None, site)
    invite = open_lobby(host, site)
    code = invite.rstrip("/").rsplit("/", 1)[1]

    friend.goto(site.url + "/")
    box = friend.get_by_role("textbox", name=re.compile("code", re.IGNORECASE))
    box.fill("QQQQ22")
    box.press("Enter")
    expect(friend.locator("#code-error")).to_contain_text("No table has this code")
    assert friend.url == site.url + "/" and box.input_value() == "QQQQ22"  # nothing else changed
    shot(friend, "friends-code-box-refused.png")
    box.fill(code.lower())
    box.press("Enter")
    friend.wait_for_url(TABLE_URL)
    expect(friend.locator("#lobby-title")).to_have_text("Waiting for the host to start")
    friend_seat = friend.evaluate("window.footTable.model.seat")
    expect(seat_line(host, friend_seat)).to_contain_text("Friend")

    name_box = friend.get_by_role("textbox", name=re.compile("name", re.IGNORECASE))
    name_box.fill("Zoë")
    name_box.press("Enter")
    expect(friend.locator("#lobby-name-status")).to_contain_text("Zoë")
    expect(seat_line(host, friend_seat)).to_contain_text("Zoë")  # pushed: the host did nothing
    host_box = host.get_by_role("textbox", name=re.compile("name", re.IGNORECASE))
    host_box.fill("Hana")
    host_box.press("Enter")
    expect(seat_line(friend, "S")).to_contain_text("Hana (host)")
    expect(seat_line(host, "S")).to_contain_text("You (host)")

    name_box.fill("x")  # the daily's rules: too short
    name_box.press("Enter")
    expect(friend.locator("#lobby-name-status")).not_to_contain_text("Saved")
    expect(friend.locator("#lobby-name-status")).not_to_be_empty()
    expect(seat_line(host, friend_seat)).to_contain_text("Zoë")
    shot(friend, "friends-lobby-name-box.png")
    shot(host, "friends-lobby-names.png")

    third.goto(site.url + "/join/")
    third_box = third.get_by_role("textbox", name=re.compile("code", re.IGNORECASE))
    third_box.fill(f"  {invite}  ")  # the whole link pasted will do
    third_box.press("Enter")
    third.wait_for_url(TABLE_URL)
    expect(third.locator("#lobby-title")).to_have_text("Waiting for the host to start")
    for page in (host, friend, third):
        assert page.foot_errors == []
