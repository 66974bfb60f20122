"""The hand by keyboard (issue 13, item 3): arrow keys move the focus between the hand's cards,
Space selects the focused card (it lifts), the focus lands on the hand after Draw 2 and after
Discard (R27: draw 2, R44: one discard ends the turn), and the sort order (by rank or by suit)
is a setting kept across a reload."""

import pytest

from .conftest import DESK, load_engine_helpers, open_table, start_game_from, version, wait_for_my_turn

pytestmark = pytest.mark.browser

helpers = load_engine_helpers()

SOUTH = "QC 4C 9D 6H 7S 8C 5D TH JS KD AH"  # one of each rank 4-A, suits mixed
RANKS = "456789TJQKA23"
SUITS = "CDHS"

FOCUSED = "document.activeElement && document.activeElement.dataset.key || null"
IN_HAND = "document.activeElement !== null && document.activeElement.closest('#hand') !== null"


def hand_codes(page) -> list[str]:
    return page.locator("#hand .card").evaluate_all("cards => cards.map((card) => card.dataset.key.split(':')[0])")


def naturals(codes: list[str]) -> list[str]:
    return [code for code in codes if code != "JK" and code[0] not in "23"]


def lift_of(page, key: str) -> float:
    """How far a card stands above the hand's other cards (a selected card lifts)."""
    return page.evaluate(
        """(key) => {
          const card = document.querySelector(`#hand .card[data-key="${key}"]`);
          const others = [...document.querySelectorAll('#hand .card')].filter((c) => c !== card);
          const row = Math.min(...others.map((c) => c.getBoundingClientRect().top));
          return row - card.getBoundingClientRect().top;
        }""",
        key,
    )


def test_arrows_move_space_selects_focus_follows_and_the_sort_is_kept(site, make_page):
    page = make_page(DESK)
    position = helpers.position(deal=1, turn="S", phase="draw", hands={"S": SOUTH}, stock_top="5C 6C")
    open_table(page, site, start_game_from(page, site, position, level="easy"))
    codes = hand_codes(page)
    assert [RANKS.index(code[0]) for code in codes] == sorted(RANKS.index(code[0]) for code in codes)  # by rank

    # Arrow keys move between the cards; the focused card is the one in the tab order.
    page.locator("#hand .card").first.focus()
    assert page.evaluate(FOCUSED) == "4C:1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == "6H:1"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUSED) == "5D:1"
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED) == "AH:1"
    page.keyboard.press("Home")
    assert page.evaluate(FOCUSED) == "4C:1"
    page.keyboard.press("ArrowRight")
    assert page.locator("#hand .card[tabindex='0']").evaluate_all("cards => cards.map((c) => c.dataset.key)") == [
        "5D:1"
    ]

    # Space selects the focused card, which lifts; Space again lets go of it. The focus stays.
    page.keyboard.press("Space")
    selected = page.locator('#hand .card[data-key="5D:1"]')
    assert selected.get_attribute("aria-pressed") == "true"
    assert lift_of(page, "5D:1") >= 5
    assert page.evaluate(FOCUSED) == "5D:1"
    page.keyboard.press("Space")
    assert selected.get_attribute("aria-pressed") == "false" and lift_of(page, "5D:1") < 1

    # Draw 2 by keyboard: the focus comes back to the hand (which now holds the two cards drawn).
    page.get_by_role("button", name="Draw 2").focus()
    since = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {since}")
    page.wait_for_function(IN_HAND)
    assert page.locator("#hand .card").count() == 13

    # Discard by keyboard: pick the ace, Discard; after the turn the focus is in the hand again.
    page.keyboard.press("End")
    assert page.evaluate(FOCUSED) == "AH:1"
    page.keyboard.press("Space")
    page.get_by_role("button", name="Discard").focus()
    since = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {since}")
    page.wait_for_function(IN_HAND)
    assert "AH" not in hand_codes(page)
    wait_for_my_turn(page, since)

    # The sort order: by suit, kept across a reload (a setting of this browser).
    sort = page.get_by_role("button", name="Sort by suit")
    assert sort.get_attribute("aria-pressed") == "false"
    sort.click()
    assert sort.get_attribute("aria-pressed") == "true"
    by_suit = naturals(hand_codes(page))
    assert [SUITS.index(code[1]) for code in by_suit] == sorted(SUITS.index(code[1]) for code in by_suit)
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    assert page.evaluate("localStorage.getItem('foot.sort')") == "suit"
    assert page.get_by_role("button", name="Sort by suit").get_attribute("aria-pressed") == "true"
    assert naturals(hand_codes(page)) == by_suit
    page.get_by_role("button", name="Sort by suit").click()  # and back: by rank, kept as well
    page.reload()
    page.wait_for_selector("#table[aria-busy=false]")
    by_rank = naturals(hand_codes(page))
    assert [RANKS.index(code[0]) for code in by_rank] == sorted(RANKS.index(code[0]) for code in by_rank)
    assert page.foot_errors == []
