"""The page "Check the deals" in a real browser: reached from the day's board, readable on a phone
in Bengali (the 64-digit commitments wrap, the checker's program scrolls inside its box)."""

import re

import pytest

from .conftest import PHONE, SCREENSHOTS

pytestmark = pytest.mark.browser


def test_the_board_leads_to_check_the_deals_with_todays_commitment(site, page):  # R57
    page.goto(site.url + "/leaderboard/")
    # The board itself shows no 64-digit commitment (issue 29 item 11): it is behind the link.
    assert not re.search(r"[0-9a-f]{64}", page.locator("main").inner_text())
    page.get_by_role("link", name="Check the deals").click()
    page.get_by_role("heading", name="Check the deals", level=1).wait_for()
    commitments = page.locator("table.commitments code").all_inner_texts()
    assert len(commitments) == 2 and all(len(text) == 64 for text in commitments)  # today and tomorrow
    assert page.get_by_role("heading", name="Check it yourself").is_visible()
    assert page.foot_errors == []


def test_check_the_deals_fits_a_phone_in_bengali(site, make_page):
    phone = make_page(PHONE, locale="bn-BD", is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.goto(site.url + "/leaderboard/check/")
    phone.get_by_role("heading", name="দানগুলো যাচাই করুন", level=1).wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(SCREENSHOTS / "check-deals-bn.png"), full_page=True)
