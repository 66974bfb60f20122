"""Refusals that say what to do next, on screen (issue 14): a pile take before the team is down,
a lay-down under the minimum, the last cards of the foot, a wild card too many. A refusal keeps
the cards picked and moves nothing on the table: it shows over the stock and discard pile
(issue 29, items 2 and 5)."""

import os
from pathlib import Path

import pytest

from .conftest import load_engine_helpers, open_table, pick, start_game_from
from .test_table_fits import SIZES, sized_page

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()
SHOTS = Path(os.environ.get("FOOT_SHOTS", "/tmp/foot-shots"))
NOT_DOWN = {"NS": False, "EW": False}


def refusal(page) -> str:
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    return page.locator("#message").inner_text()


def test_a_take_before_the_team_is_down_says_to_set_aside_melds(site, page):  # R40
    position = helpers.position(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D 8S TC JD QS"}, discard="5D 9D", turn="S", phase="draw", down=NOT_DOWN
    )
    open_table(page, site, start_game_from(page, site, position))
    pick(page, "Nine of clubs")
    pick(page, "Nine of spades")
    page.get_by_role("button", name="Take pile").click()
    text = refusal(page)
    assert "(this one is worth 30)" in text
    assert (
        "You need 20 more points: set aside melds that reach 50 together with the top card, then press Take pile."
        in text
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "refusal-take.png"))


def test_a_lay_down_under_the_minimum_says_how_much_is_missing(site, page):  # R37
    position = helpers.position(hands={"S": "KC KD KH 8C 8D 5C 6D 9H"}, phase="play", turn="S", down=NOT_DOWN)
    open_table(page, site, start_game_from(page, site, position))
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Meld").click()
    assert "You need 20 more points: set aside more melds with Set aside, then press Lay down." in refusal(page)
    # Issue 29, item 5: the refused cards stay picked, ready to be set aside or played again.
    page.wait_for_function("document.querySelectorAll('#hand .card[aria-pressed=\"true\"]').length === 3")
    picked = page.locator('#hand .card[aria-pressed="true"]').evaluate_all("cards => cards.map((c) => c.dataset.code)")
    assert sorted(picked) == ["KC", "KD", "KH"]


def test_melding_the_last_foot_cards_says_which_piles_are_missing(site, page):  # R47, R49
    position = helpers.position(
        hands={"S": "5C 5D 5H", "N": "4C 4D"},
        feet={"S": None, "N": None},
        phase="play",
        turn="S",
        melds={"NS": ["KC KD KH KS KC KD KH", "5C 5D 5H 5S"]},
    )
    open_table(page, site, start_game_from(page, site, position))
    for name in ("Five of clubs", "Five of diamonds", "Five of hearts"):
        pick(page, name)
    page.locator('#melds-us button[data-rank="5"]').click()
    text = refusal(page)
    assert text.startswith(
        "You can go out only with 2 clean, 2 dirty and 1 wild pile: you still need 2 dirty piles and 1 wild pile."
    ), text
    assert "Keep two cards in your foot and play on" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "refusal-going-out.png"))


def test_a_wild_card_too_many_says_what_to_select(site, make_page):  # R15
    page = make_page(locale="de-DE")
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": site.url}])
    position = helpers.position(hands={"S": "KC KD 2C JK 8H 4S"}, phase="play", turn="S", melds={"NS": ["AC AD AH"]})
    open_table(page, site, start_game_from(page, site, position))
    for name in ("Kreuz-König", "Karo-König", "Kreuz-Zwei", "Joker"):
        pick(page, name)
    page.get_by_role("button", name="Melden").click()
    text = refusal(page)
    assert text.startswith("Eine Meldung braucht mindestens doppelt so viele natürliche wie wilde Karten.")
    assert "weniger wilde Karten" in text


# Where the parts of the table a player uses are, and what is found at the middle of each button
# and of the hand: a message over them would be found instead.
PLACES = """() => {
  const ids = ['turn-banner', 'controls', 'hand', 'melds-us', 'melds-them', 'stock'];
  const tops = ids.map((id) => Math.round(document.getElementById(id).getBoundingClientRect().top));
  const targets = [...document.querySelectorAll('#controls button:not([hidden]), #hand .card')];
  const covered = targets.filter((target) => {
    const r = target.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 4, r.top + 4);
    return !(hit && target.contains(hit));
  }).map((target) => target.id || target.dataset.key);
  return { tops, covered };
}"""


@pytest.mark.parametrize("size_name", ["laptop", "small-phone"])
def test_a_refusal_moves_nothing_and_keeps_the_cards_picked(site, make_page, size_name):
    page = sized_page(make_page, size_name)
    position = helpers.position(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D 8S TC JD QS"}, discard="5D 9D", turn="S", phase="draw", down=NOT_DOWN
    )
    open_table(page, site, start_game_from(page, site, position))
    pick(page, "Nine of clubs")
    pick(page, "Nine of spades")
    before = page.evaluate(PLACES)
    page.get_by_role("button", name="Take pile").click()
    assert "You need 20 more points" in refusal(page)
    after = page.evaluate(PLACES)
    assert after["tops"] == before["tops"], "the refusal moved the table"
    assert after["covered"] == [], "the refusal covers a button or a card"
    message = page.locator("#message").bounding_box()
    assert message is not None and message["y"] >= 0 and message["y"] + message["height"] <= SIZES[size_name][1]
    assert page.locator('#hand .card[aria-pressed="true"]').count() == 2  # picked still, to try again (item 5)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"refusal-{size_name}.png"))
    assert page.foot_errors == []
