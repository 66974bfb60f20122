"""Coming back to the table (issue 29): the tab's title says "Your turn" while it is the player's
turn; in a friends game a notification says it when the page is in the background, asked for only
after the player presses a button (never on load). And the table's small words of item 11: the
foot that comes at the next turn after the last hand card, and a checklist that never reads 5/2."""

import pytest

from .conftest import load_engine_helpers, open_table, pick, start_game_from

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()
HAND = "KC KD 8C 8D 5C 6D 9H TC JS QD 4S"
TITLE = "Your turn · Foot Canasta"

# A stand-in for the browser's Notification (headless Chromium has no notification centre): it
# records the permission asked for and each notification made; `window.footHidden` plays a tab in
# the background.
FAKE_NOTIFICATIONS = """
window.footAsked = 0;
window.footNotified = [];
window.footHidden = false;
Object.defineProperty(Document.prototype, "hidden", { get: () => window.footHidden });
window.Notification = class {
  constructor(title, options) { window.footNotified.push(title); }
  static requestPermission() {
    window.footAsked += 1;
    window.Notification.permission = "granted";
    return Promise.resolve("granted");
  }
};
window.Notification.permission = "default";
"""

AS_FRIENDS = """() => {
  const m = window.footTable.model;
  window.footTable.receive({type: "state", v: m.v, view: m.view, seat: m.seat, mode: "friends", ranked: false,
    status: "playing", awaiting: [], recent: [], seats: {S: "you", W: "bot", N: "bot", E: "bot"}, names: {S: null}});
}"""

MY_TURN_AGAIN = (
    "document.querySelector('#seat-right .seat-last').textContent"
    " && document.querySelector('#turn-banner').classList.contains('mine')"
)


def test_the_title_says_your_turn_and_a_friends_game_notifies_once_asked(site, page):
    page.add_init_script(FAKE_NOTIFICATIONS)
    open_table(page, site, start_game_from(page, site, helpers.position(hands={"S": HAND}, turn="S", phase="play")))
    assert page.title() == TITLE
    button = page.get_by_role("button", name="Tell me when it is my turn")
    assert button.is_hidden()  # a solo game: no notification offered
    page.evaluate(AS_FRIENDS)
    button.wait_for()
    assert page.evaluate("window.footAsked") == 0  # never asked on load
    button.click()
    page.wait_for_function("window.footAsked === 1")
    assert button.is_hidden()
    page.evaluate("window.footHidden = true")
    pick(page, "Four of spades")
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function(MY_TURN_AGAIN, timeout=60000)  # the three computers played, in the background
    assert page.title() == TITLE
    assert page.evaluate("window.footNotified") == [TITLE]
    assert page.foot_errors == []


# Every note the empty hand shows, kept (the computers' turns pass fast: the foot comes soon after).
RECORD_NOTES = """
window.footNotes = [];
new MutationObserver(() => {
  for (const note of document.querySelectorAll('#hand .empty-note')) window.footNotes.push(note.textContent);
}).observe(document, { childList: true, subtree: true });
"""


def test_the_last_hand_card_discarded_says_the_foot_comes_next_turn(site, page):
    page.add_init_script(RECORD_NOTES)
    position = helpers.position(hands={"S": "4S"}, turn="S", phase="play", melds={"NS": ["KC KD KH"]})
    open_table(page, site, start_game_from(page, site, position))
    pick(page, "Four of spades")
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function("window.footNotes.length > 0")
    assert page.evaluate("window.footNotes")[0] == (
        "No cards in your hand: you pick up your foot when your next turn starts."
    )
    assert page.foot_errors == []


def test_the_checklist_counts_a_kind_up_to_what_is_needed(site, page):
    piles = ["KC KD KH KS KC KD KH", "AC AD AH AS AC AD AH", "QC QD QH QS QC QD QH"]
    position = helpers.position(hands={"S": HAND}, turn="S", phase="play", melds={"NS": piles})
    open_table(page, site, start_game_from(page, site, position))
    status = page.locator("#status").text_content()
    assert "Clean piles: 2/2" in status and "3/2" not in status, status
