"""The "What happened" log reads like the game (issue #13, item 7): one line per move, a bot's
draw with a red three included; the red threes of the dealt hands at a deal's start; your own
lines marked; and after a reload the log, the set-aside groups and the selection come back."""

import re

import pytest

from .conftest import hand, load_engine_helpers, open_table, pick, start_game_from, version

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()

LOG_LINES = (
    "[...document.querySelectorAll('#log li')].map(li => ({text: li.textContent, mine: li.classList.contains('mine')}))"
)


def log_lines(page):
    return page.evaluate(LOG_LINES)


def wait_for_line(page, text, timeout=30000):
    page.wait_for_function(
        "text => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes(text))",
        arg=text,
        timeout=timeout,
    )


def test_a_bots_draw_with_a_red_three_is_one_line(site, page):
    # West draws 3♥ (R34: laid at once, replaced by 7♣) and 8♦: one move, one line.
    position = helpers.position(
        hands={"S": "KC KD 8C 8D 5C 6D 9H TC JS QD 4S"},
        melds={"NS": ["AC AD AH"]},
        turn="S",
        phase="play",
        stock_top="3H 7C 8D",
    )
    open_table(page, site, start_game_from(page, site, position))
    pick(page, "Four of spades")
    page.get_by_role("button", name="Discard").click()
    wait_for_line(page, "West (computer) drew")
    lines = log_lines(page)
    texts = [line["text"] for line in lines]
    assert "You discarded 4♠." in texts
    assert "West (computer) drew 2 cards and laid a red three (3♥)." in texts, texts
    assert not any("drew 1 card" in text for text in texts), texts  # the replacement is part of the draw
    assert [line["mine"] for line in lines if line["text"].startswith("You ")] == [True]
    assert not any(line["mine"] for line in lines if line["text"].startswith("West "))
    assert page.foot_errors == []


def deal_two_red_threes():
    """A seed whose deal 2 deals red threes, with what the engine lays at its start (seat, card)."""
    from games.engine import Game

    for seed in range(1, 200):
        game = Game.from_position(going_out(seed))
        game.apply("S", {"type": "meld", "groups": [{"cards": ["QC", "QD"], "to": "Q"}]})
        events = game.apply("S", {"type": "discard", "card": "9S"})
        start = next(i for i, event in enumerate(events) if event["type"] == "deal_start")
        laid = [(event["seat"], event["card"]) for event in events[start:] if event["type"] == "red_three"]
        if laid:
            return seed, laid
    raise AssertionError("no seed deals a red three in deal 2")


def going_out(seed):
    return helpers.position(
        seed=seed,
        hands={"S": "QC QD 9S"},
        feet={"S": None, "N": None},
        melds={"NS": helpers.GOING_OUT_PILES + ["QH QS QC QD"]},
        turn="S",
        phase="play",
    )


NAMES = {"S": "You", "W": "West (computer)", "N": "North (computer partner)", "E": "East (computer)"}
SUITS = {"3H": "3♥", "3D": "3♦"}


def test_the_red_threes_of_the_dealt_hands_are_logged_at_the_deals_start(site, page):
    seed, laid = deal_two_red_threes()
    open_table(page, site, start_game_from(page, site, going_out(seed)))
    pick(page, "Queen of clubs")
    pick(page, "Queen of diamonds")
    page.locator('#melds-us button[data-rank="Q"]').click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 1")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Discard").click()
    # Issue 29, item 11: the next deal's lines wait behind the deal's score until Next deal.
    page.get_by_role("dialog", name="Deal 1 is over").wait_for()
    wait_for_line(page, "You discarded 9♠ and went out.")
    assert not any(line["text"] == "Deal 2 begins." for line in log_lines(page))
    page.get_by_role("button", name="Next deal").click()
    wait_for_line(page, "Deal 2 begins.")
    texts = [line["text"] for line in log_lines(page)]
    assert "You discarded 9♠ and went out." in texts, texts
    begins = texts.index("Deal 2 begins.")
    over = texts[begins - 1]  # the deal's end, with its score as the reader's team sees it (R51-R53)
    assert re.fullmatch(r"Deal 1 is over: a player went out\. Your team \d+, the opponents -?\d+\.", over), texts
    for seat in dict(laid):
        cards = [SUITS[card] for who, card in laid if who == seat]
        said = (
            f"{NAMES[seat]} laid a red three ({cards[0]})"
            if len(cards) == 1
            else f"{NAMES[seat]} laid {len(cards)} red threes"
        )
        assert any(text.startswith(said) for text in texts[begins + 1 :]), (said, texts)


def test_the_log_and_the_staging_come_back_after_a_reload(site, page):
    position = helpers.position(
        hands={"S": "KC KD KH 8C 8D 2S 5C 6D 9H TC JS QD 4S"},
        phase="draw",
        turn="S",
        down={"NS": False, "EW": False},
        stock_top="7C 7D",
    )
    open_table(page, site, start_game_from(page, site, position))
    page.get_by_role("button", name="Draw 2").click()
    wait_for_line(page, "You drew 7♣ and 7♦.")  # two cards, never read as one (issue 29, item 11)
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    pick(page, "Eight of clubs")
    before = log_lines(page)
    at = version(page)

    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert version(page) == at
    assert log_lines(page) == before  # the same lines, your own still marked
    staged = page.locator("#staged-groups .staged-cards").first
    assert staged.get_attribute("aria-label") == "King of clubs, King of diamonds, King of hearts"
    assert hand(page).count() == 15 - 3
    assert page.locator('#hand button[aria-label="Eight of clubs"][aria-pressed="true"]').count() == 1
    page.wait_for_function("document.querySelector('#staging-status').textContent.includes('30')")  # checked again

    page.get_by_role("button", name="Take back King of clubs, King of diamonds, King of hearts").click()
    page.locator('#hand button[aria-label="Eight of clubs"]').click()  # deselected
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert not page.locator("#staging").is_visible()  # what was taken back stays back
    assert page.locator('#hand button[aria-pressed="true"]').count() == 0


def test_a_new_tab_of_the_same_seat_starts_clean(site, page):
    """The staging is kept per tab (sessionStorage): another tab of the same player sees none."""
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
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#table[aria-busy=false]")
    assert not other.locator("#staging").is_visible()
    assert other.locator("#hand button.card").count() == 14
    other.close()


# A recap as the server's first state after an absence carries it (docs/PROTOCOL.md, `recap`): the
# move that ended deal 1 and dealt deal 2, then West's draw; five earlier moves left out.
RECAP_ACROSS_A_DEAL_END = """() => {
  const m = window.footTable.model;
  window.footTable.receive({type: "state", v: m.v, view: m.view, seat: m.seat, mode: m.mode, ranked: false,
    status: "playing", awaiting: [], host: m.host, code: m.code, recent: [],
    seats: {S: "you", W: "bot", N: "bot", E: "bot"}, names: {S: null},
    recap: {from: 2, v: 9, earlier: 5, moves: [
      {v: 8, events: [{type: "discard", seat: "S", card: "9S"}, {type: "go_out", seat: "S", team: "NS"},
        {type: "deal_end", deal: 1, reason: "out", score: {NS: {total: 1240}, EW: {total: 860}}},
        {type: "deal_start", deal: 2}, {type: "turn", seat: "W"}]},
      {v: 9, events: [{type: "draw", seat: "W", count: 2}]}]}});
}"""


def test_the_recap_tells_its_moves_as_the_log_does_across_a_deal_end(site, page):
    """Issue 15, item 3: the recap's lines are the log's (the deal's end with its score, R51-R53, then
    the new deal's moves), after a line counting the moves left out."""
    position = helpers.position(hands={"S": "KC KD 8C 8D 5C 6D 9H TC JS QD 4S"}, turn="S", phase="draw")
    open_table(page, site, start_game_from(page, site, position))
    page.evaluate(RECAP_ACROSS_A_DEAL_END)
    recap = page.locator("#recap")
    page.wait_for_selector("#recap[open]")
    assert recap.locator("h2").inner_text() == "While you were away"
    assert recap.locator("li").all_inner_texts() == [
        "… and 5 earlier moves",
        "You discarded 9♠ and went out.",
        "Deal 1 is over: a player went out. Your team 1240, the opponents 860.",
        "Deal 2 begins.",
        "West (computer) drew 2 cards.",
    ]
    assert page.foot_errors == []
