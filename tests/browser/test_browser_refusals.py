"""Refusals that say what to do next, on screen (issue 14): a pile take before the team is down,
a lay-down under the minimum, the last cards of the foot, a wild card too many."""

import os
from pathlib import Path

import pytest

from .conftest import load_engine_helpers, open_table, pick, start_game_from

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
