"""Undo within a turn at the table (docs/RULES.md V7): the Undo button is shown at a table that
allows undo, enabled from the seat's options only; pressing it after a meld brings the cards
back to the hand, and the log says so. A table without undo shows no Undo button."""

import pytest

from games.engine import Rules

from .conftest import DESK, PHONE, hand, load_engine_helpers, open_table, pick, start_game_from

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()
NINES = ("Nine of clubs", "Nine of spades", "Nine of hearts")


def melding_position(undo: bool) -> dict:
    """South has drawn and holds three nines; the team is down."""
    extra = {"rules": Rules(undo=True).to_json()} if undo else {}
    return helpers.position(
        hands={"S": "9C 9S 9H 4H KD 5C"}, phase="play", turn="S", melds={"NS": ["AC AD AH"]}, **extra
    )


@pytest.fixture(params=["desk", "phone"])
def sized_page(request, make_page):
    if request.param == "phone":
        return make_page(PHONE, is_mobile=True, has_touch=True)
    return make_page(DESK)


def test_meld_then_undo_brings_the_cards_back_to_the_hand(site, sized_page, tmp_path):  # V7
    page = sized_page
    width = page.viewport_size["width"]
    open_table(page, site, start_game_from(page, site, melding_position(undo=True)))
    undo = page.get_by_role("button", name="Undo")
    assert undo.is_visible() and undo.is_disabled()  # nothing melded this turn yet
    for name in NINES:
        pick(page, name)
    page.get_by_role("button", name="Meld").click()
    page.wait_for_selector('#melds-us [data-rank="9"]')
    assert hand(page).count() == 3
    page.wait_for_function("!document.getElementById('btn-undo').disabled")
    page.screenshot(path=str(tmp_path / "undo-after-meld.png"))
    box = undo.bounding_box()  # the controls still fit the screen with Undo among them
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1 and box["height"] >= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    undo.click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 6")
    assert page.locator('#melds-us [data-rank="9"]').count() == 0
    for name in NINES:
        assert page.locator(f'#hand button[aria-label="{name}"]').count() == 1
    page.wait_for_function("document.getElementById('btn-undo').disabled")
    assert "You took back the last meld" in page.locator("#log li").last.inner_text()
    page.screenshot(path=str(tmp_path / "undo-after-undo.png"))


def test_a_table_without_undo_shows_no_undo_button(site, page):  # V7: off unless the table chose it
    open_table(page, site, start_game_from(page, site, melding_position(undo=False)))
    assert page.locator("#btn-undo").is_hidden()
