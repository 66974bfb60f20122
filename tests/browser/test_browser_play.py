"""Playing at the table in a real browser against the real server, engine and bots: a new game,
drawing, selecting, the first lay-down with Set aside / Lay down, adding to a meld, discarding,
the bots' turns, taking the pile, getting into the foot, reloading mid-game, and the end of a
deal with its score breakdown. Prepared positions come in through the FOOT_TEST_HOOKS route."""

import re

import pytest

from .conftest import (
    DESK,
    PHONE,
    as_ranked_daily,
    hand,
    last_deal_position,
    load_engine_helpers,
    open_table,
    pick,
    start_game_from,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()


@pytest.fixture(params=["desk", "phone"])
def sized_page(request, make_page):
    """The same test at desk size and at phone size (touch)."""
    if request.param == "phone":
        return make_page(PHONE, is_mobile=True, has_touch=True)
    return make_page(DESK)


def start_new_game(page, site):
    page.goto(site.url + "/")
    page.get_by_role("button", name="Start a new game").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.wait_for_selector("#table[aria-busy=false]")


def test_new_game_draw_discard_and_the_bots_play(site, page):
    start_new_game(page, site)
    assert page.get_by_role("region", name="Your hand").is_visible()
    assert hand(page).count() == 13  # R9 (red threes are replaced, R13)
    assert "Your turn" in page.locator("#turn-banner").inner_text()  # R8: South starts deal 1
    assert page.get_by_role("button", name="Discard").is_disabled()  # R25: draw first
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")  # R27
    assert page.get_by_role("button", name="Draw 2").is_disabled()
    # The log runs oldest first, and may open with the deal's own line ("Deal 1 begins."): the
    # newest line is the draw.
    assert page.locator("#log li").last.inner_text().startswith("You drew")

    first = hand(page).first
    first.click()
    assert first.get_attribute("aria-pressed") == "true"
    first.click()
    assert first.get_attribute("aria-pressed") == "false"  # tap again to deselect
    first.click()
    count_before = hand(page).count()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function(f"document.querySelectorAll('#hand button.card').length === {count_before - 1}")

    wait_for_my_turn(page, since)  # R6: West, North and East played, in that order
    log = page.locator("#log").inner_text()
    # Only the lines after my discard: a seat's red three dealt at the deal's start is logged first.
    log = log[log.rfind("You discarded") :]
    west, north, east = (
        log.find("\nWest (computer) "),
        log.find("\nNorth (computer partner) "),
        log.find("\nEast (computer) "),
    )
    assert -1 < west < north < east, log
    assert page.get_by_role("button", name="Draw 2").is_enabled()
    assert page.foot_errors == []


def test_first_lay_down_with_set_aside_then_add_and_discard(site, sized_page):
    page = sized_page
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 2S 5C 6D 9H TC JS QD 4S KS"},
        phase="play",
        turn="S",
        down={"NS": False, "EW": False},
    )
    open_table(page, site, start_game_from(page, site, position))
    assert page.get_by_role("button", name="Set aside").is_visible()
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    status = page.locator("#staging-status")
    page.wait_for_function("document.querySelector('#staging-status').textContent.includes('50')")
    assert "30" in status.inner_text()  # R37/R39: 30 of 50, told by the server's check
    assert page.get_by_role("button", name="Lay down").is_disabled()
    for name in ("Eight of clubs", "Eight of diamonds", "Two of spades"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    page.wait_for_function("document.querySelector('#staging-status').textContent.includes('Ready')")
    assert "70" in status.inner_text()  # E5: KKK + 8 8 2 = 70
    assert hand(page).count() == 8  # set-aside cards leave the hand display (R42)
    page.get_by_role("button", name="Lay down").click()
    page.wait_for_selector('#melds-us [data-rank="K"]')
    assert page.locator('#melds-us [data-rank="8"]').count() == 1
    assert "Your team is down" in page.locator("#status").inner_text()  # R41
    assert not page.get_by_role("button", name="Set aside").is_visible()

    pick(page, "King of spades")
    page.locator('#melds-us button[data-rank="K"]').click()  # R21: add to the team's K meld
    page.wait_for_function("document.querySelector('#melds-us [data-rank=\"K\"]').textContent.includes('4 of 7')")
    assert "You melded K♠ onto the Kings." in page.locator("#log").inner_text()

    pick(page, "Four of spades")
    page.get_by_role("button", name="Discard").click()
    # The bots answer at once here (FOOT_BOT_DELAY=0): West may have covered the 4♠ on the pile
    # before the page is looked at, so the lasting sign of the discard is the game log.
    page.wait_for_function("document.querySelector('#log').textContent.includes('You discarded 4♠.')")


def test_refused_move_shows_the_servers_message(site, page):
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 2S 5C 6D 9H TC JS QD 4S KS"},
        phase="play",
        turn="S",
        down={"NS": False, "EW": False},
    )
    open_table(page, site, start_game_from(page, site, position))
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Meld").click()
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    assert "50" in page.locator("#message").inner_text()  # R37: the first meld needs 50
    assert page.locator("#melds-us .meld").count() == 0


def test_take_the_pile(site, sized_page):
    page = sized_page
    position = helpers.position(
        hands={"S": "9C 9S 4H 5H 6C 7D 8S TC JD QS KH 4C 5C"},
        discard="5D 9D",
        melds={"NS": ["AC AD AH"]},
        turn="S",
        phase="draw",
    )
    open_table(page, site, start_game_from(page, site, position))
    assert page.get_by_role("button", name="Take pile").is_enabled()  # R29
    pick(page, "Nine of clubs")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Take pile").click()
    page.wait_for_selector('#melds-us [data-rank="9"]')  # R30: the top card and the pair melded
    assert "3 of 7" in page.locator('#melds-us [data-rank="9"]').inner_text()
    assert (
        "You took the pile (2 cards) and melded 9" in page.locator("#log").inner_text()
    )  # R28: all of a small pile, one line
    assert (
        page.get_by_role("region", name="Your hand").get_by_role("button", name="Five of diamonds").count() == 1
    )  # R31


def test_melding_the_last_card_of_the_hand_picks_up_the_foot(site, sized_page):
    page = sized_page
    position = helpers.position(
        hands={"S": "7C 7D"},
        feet={"S": "4C 4D 4H 5C 5D 5H 6C 6D 6H 8C 8D 8H 9C"},
        melds={"NS": ["7H 7S 7C"]},
        turn="S",
        phase="play",
    )
    open_table(page, site, start_game_from(page, site, position))
    assert "Foot: 13 cards" in page.locator("#seat-bottom").inner_text()
    pick(page, "Seven of clubs")
    pick(page, "Seven of diamonds")
    page.locator('#melds-us button[data-rank="7"]').click()
    page.wait_for_selector("#seat-bottom .in-foot")  # R44: the foot at once
    assert hand(page).count() == 13
    assert "onto the Sevens and picked up your foot." in page.locator("#log").inner_text()  # one line for the move
    assert page.get_by_role("button", name="Discard").is_visible()


def test_reload_and_a_dropped_socket_resume_the_game(site, page):
    start_new_game(page, site)
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
    cards_before = sorted(hand(page).evaluate_all("buttons => buttons.map(b => b.dataset.code)"))
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert sorted(hand(page).evaluate_all("buttons => buttons.map(b => b.dataset.code)")) == cards_before
    assert page.get_by_role("button", name="Draw 2").is_disabled()  # still after the draw (R26)

    page.wait_for_function("document.querySelector('#table').dataset.connections === '1'")
    page.evaluate("window.footTable.socket.drop()")
    page.wait_for_function("document.querySelector('#table').dataset.connections === '2'", timeout=20000)
    page.wait_for_selector("#table[data-connection=open]")
    hand(page).first.click()
    since = version(page)
    page.get_by_role("button", name="Discard").click()
    wait_for_my_turn(page, since)
    assert page.foot_errors == []


def going_out_position():
    return helpers.position(
        hands={"S": "QC QD 9S"},
        feet={"S": None, "N": None},
        melds={"NS": helpers.GOING_OUT_PILES + ["QH QS QC QD"]},
        turn="S",
        phase="play",
    )


def test_going_out_ends_the_deal_with_a_score_breakdown(site, sized_page):
    page = sized_page
    open_table(page, site, start_game_from(page, site, going_out_position()))
    assert "☑" in page.locator("#status .checklist").inner_text()
    pick(page, "Queen of clubs")
    pick(page, "Queen of diamonds")
    page.locator('#melds-us button[data-rank="Q"]').click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 1")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Discard").click()  # R48: out by discarding the last card
    dialog = page.get_by_role("dialog", name="Deal 1 is over")
    dialog.wait_for()
    rows = {
        row.locator("th").inner_text(): row.locator("td").all_inner_texts() for row in dialog.locator("tbody tr").all()
    }
    assert rows["Going out"][0] == "100"  # R54
    assert rows["Piles"][0] == "3100"  # 2×500 + 2×300 + 1500
    assert rows["Deal total"][0] == str(sum(int(rows[key][0]) for key in rows if key != "Deal total"))
    page.get_by_role("button", name="Next deal").click()
    assert not dialog.is_visible()
    page.wait_for_function("document.querySelector('#deal-info').textContent.includes('Deal 2 of 4')")  # R55a


def finish_the_deal(page):
    pick(page, "Queen of clubs")
    pick(page, "Queen of diamonds")
    page.locator('#melds-us button[data-rank="Q"]').click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 1")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Discard").click()


def test_the_score_is_shown_again_after_a_reload_until_next_deal(site, page):
    open_table(page, site, start_game_from(page, site, going_out_position()))
    finish_the_deal(page)
    page.get_by_role("dialog", name="Deal 1 is over").wait_for()
    page.reload()
    page.get_by_role("dialog", name="Deal 1 is over").wait_for()  # the bots still wait for this player
    page.get_by_role("button", name="Next deal").click()
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert not page.get_by_role("dialog", name="Deal 1 is over").is_visible()


def test_going_out_in_deal_4_ends_the_game_with_the_winner(site, page):
    position = last_deal_position()
    open_table(page, site, start_game_from(page, site, position))
    assert "Deal 4 of 4" in page.locator("#deal-info").inner_text()
    assert "150" in page.locator("#minimum-info").inner_text()  # R37
    finish_the_deal(page)
    dialog = page.get_by_role("dialog", name="Your team wins!")  # R56
    dialog.wait_for()
    totals = dialog.locator("tfoot td").all_inner_texts()
    us, them = int(totals[0]), int(totals[1])
    assert us > them
    assert us == 3 * 1280 + int(dialog.locator("tr.deal-total td").first.inner_text())
    assert dialog.get_by_role("link", name="Play again").get_attribute("href") == "/"


def test_set_aside_groups_can_be_taken_back(site, page):
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 2S 5C 6D 9H TC JS QD 4S KS"},
        phase="play",
        turn="S",
        down={"NS": False, "EW": False},
    )
    open_table(page, site, start_game_from(page, site, position))
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    assert hand(page).count() == 11
    page.get_by_role("button", name="Take back King of clubs, King of diamonds, King of hearts").click()
    assert hand(page).count() == 14  # R42: staging is interface state only
    assert not page.locator("#staging").is_visible()


def test_take_the_pile_for_the_first_meld_with_a_group_set_aside(site, page):
    # E8: top 9D with 9C 9S counts 30; with the group AC AD AH set aside, 90 >= 50 (R40).
    position = helpers.position(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D 8S TC JD QS"},
        discard="5D AS AH 9D",
        turn="S",
        phase="draw",
        down={"NS": False, "EW": False},
    )
    open_table(page, site, start_game_from(page, site, position))
    for name in ("Ace of clubs", "Ace of diamonds", "Ace of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    assert "take the pile" in page.locator("#staging-status").inner_text()
    pick(page, "Nine of clubs")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Take pile").click()
    page.wait_for_selector('#melds-us [data-rank="9"]')
    assert page.locator('#melds-us [data-rank="A"]').count() == 1
    assert "Your team is down" in page.locator("#status").inner_text()
    assert hand(page).count() == 8 + 3  # 13 - 5 melded + 3 taken (R31)


SPY_ON_SEND = """() => {
  window.sent = [];
  const socket = window.footTable.socket;
  const send = socket.send.bind(socket);
  socket.send = (message) => { window.sent.push(message.type); return send(message); };
}"""


def test_a_gap_in_versions_or_a_bad_patch_asks_for_the_whole_view(site, page):
    start_new_game(page, site)
    page.evaluate(SPY_ON_SEND)
    v = version(page)
    page.evaluate(f"window.footTable.receive({{type: 'patch', v: {v + 3}, ops: [], events: []}})")  # v+1, v+2 lost
    assert page.evaluate("window.sent") == ["sync"]
    page.wait_for_function(f"window.footTable.model.v === {v}")  # the state answered the sync
    bad_patch = {"type": "patch", "v": v + 1, "ops": [{"op": "remove", "path": "/no/such"}], "events": []}
    page.evaluate("(message) => window.footTable.receive(message)", bad_patch)
    assert page.evaluate("window.sent") == ["sync", "sync"]
    assert page.evaluate("window.footTable.model.v") == v  # the bad patch was not taken
    assert hand(page).count() == 13


def test_daily_game_over_shows_the_rank_and_a_share_text(site, page):
    """The end of a ranked daily: the score against par, the rank and the share text come from the
    leaderboards API. A real ranked daily is dealt from the day's secret seed, so this one is a
    prepared position whose state the socket route marks as a ranked daily, with the API's answer
    (GET /api/daily/result) stubbed."""
    position = last_deal_position()
    game = start_game_from(page, site, position)

    page.route_web_socket(re.compile(r"/ws/game/"), as_ranked_daily)
    share_text = "Foot Canasta daily 2026-12-01\nWon 8,000 to 2,000 · rank 3"
    result = {"date": "2026-12-01", "score": 8000, "opponents_score": 2000, "result": "won", "par": 6760,
              "against_par": 1240, "standing": "listed", "rank": 3, "nickname": "Anna",
              "board": "/leaderboard/2026-12-01/", "text": share_text}  # fmt: skip
    page.route(re.compile(r"/api/daily/result/"), lambda route: route.fulfill(json=result))

    open_table(page, site, game)
    assert not page.get_by_role("button", name="Hint").is_visible()  # no hints in a ranked daily
    finish_the_deal(page)
    dialog = page.get_by_role("dialog", name="Your team wins!")
    dialog.wait_for()
    page.wait_for_selector("#share:not([hidden])")
    assert "Your rank today: 3" in dialog.inner_text()
    # The par on its own line, its numbers written as the page writes them (no grouping).
    assert "Your score: 8000\n\nPar: 6760 · 1240 points above the computers' par" in dialog.inner_text()
    assert page.locator("#share-text").input_value().startswith(share_text)
