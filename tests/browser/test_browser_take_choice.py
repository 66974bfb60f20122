"""Take pile that finds the cards (issue 14): pressed with nothing selected, the server's choice is
shown to confirm (the pair and, before the team is down, the groups that reach the minimum, R40),
or the page says why the pile cannot be taken."""

import os
from pathlib import Path

import pytest

from .conftest import hand, load_engine_helpers, open_table, start_game_from

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()
SHOTS = Path(os.environ.get("FOOT_SHOTS", "/tmp/foot-shots"))
NOT_DOWN = {"NS": False, "EW": False}


def test_take_pile_with_nothing_selected_offers_the_cards_and_takes_on_confirm(site, page):  # R40, E8
    position = helpers.position(
        hands={"S": "9C 9S AC AD AH 4H 5H 6C 7D 8S TC JD QS"},
        discard="5D AS AH 9D",
        turn="S",
        phase="draw",
        down=NOT_DOWN,
    )
    open_table(page, site, start_game_from(page, site, position))
    page.get_by_role("button", name="Take pile").click()
    page.wait_for_selector("#btn-offer:not([hidden])")
    text = page.locator("#message").inner_text()
    assert text.startswith("Take the pile like this? Set aside A♣ A♦ A♥, then Take the pile with 9♣ 9♠"), text
    assert "points" in text
    assert page.get_by_role("button", name="Yes, take the pile").is_visible()
    assert page.locator("#hand button.card.hinted").count() == 5  # the pair and the group, lit
    assert page.locator("#melds-us .meld").count() == 0  # nothing happens before the confirm
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "take-choice.png"))
    page.get_by_role("button", name="Yes, take the pile").click()
    page.wait_for_selector('#melds-us [data-rank="9"]')
    assert page.locator('#melds-us [data-rank="A"]').count() == 1
    assert "Your team is down" in page.locator("#status").inner_text()  # R41
    assert hand(page).count() == 13 - 5 + 3  # R31: the other taken cards join the hand
    assert page.locator(".hinted").count() == 0  # issue 29, item 6: no frame stays after the take


def test_take_pile_with_nothing_selected_says_why_it_cannot_be_taken(site, page):  # R37, R40
    position = helpers.position(
        hands={"S": "9C 9S 4H 5H 6C 7D 8S TC JD QS KH 4C 5C"},
        discard="5D 9D",
        turn="S",
        phase="draw",
        down=NOT_DOWN,
        deal=2,
    )
    open_table(page, site, start_game_from(page, site, position))
    page.get_by_role("button", name="Take pile").click()
    page.wait_for_function("document.querySelector('#message').textContent.length > 0")
    text = page.locator("#message").inner_text()
    assert text == (
        "Your cards cannot make a first meld of 90 points with the top card 9♦. "
        "Press Draw 2 and collect cards for your first meld."
    )
    assert page.locator("#btn-offer").is_hidden()
    page.get_by_role("button", name="Draw 2").click()  # and the turn goes on as the message says
    page.wait_for_function("document.querySelectorAll('#hand button.card').length >= 15")
