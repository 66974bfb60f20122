"""Learn to play in a real browser: from the home page's button, the lesson's prompts followed
one by one by clicking as a newcomer would (draw, Set aside twice and Lay down, add to a meld,
discard, take the pile), to the offer of a real game; and at phone size the prompt sits clear of
the hand and the buttons. The steps and prompts come from the server (games.rooms.lesson)."""

import re

import pytest

from .conftest import PHONE, SCREENSHOTS, pick

pytestmark = pytest.mark.browser


def start_lesson(page, site) -> None:
    page.goto(site.url + "/")
    page.get_by_role("button", name="Learn to play").click()
    page.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    page.wait_for_selector("#table[aria-busy=false]")


def prompt_for(page, step: str) -> str:
    """The lesson's prompt once the server says `step` is the current one."""
    page.wait_for_selector(f'#lesson[data-step="{step}"]', timeout=30000)
    return page.locator("#lesson-text").inner_text()


def shot(page, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / name))


def test_the_lesson_is_followed_by_its_prompts_to_the_offer_of_a_real_game(site, page):  # R25 R27 R37 R42 R21 R29
    start_lesson(page, site)
    prompt = prompt_for(page, "draw")
    assert "Draw 2" in prompt
    shot(page, "lesson-1-draw.png")
    page.get_by_role("button", name="Draw 2").click()

    prompt = prompt_for(page, "first_meld")
    assert "K♣ K♦ K♥" in prompt and "Q♣ Q♦ Q♥" in prompt and "Set aside" in prompt and "Lay down" in prompt
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    shot(page, "lesson-2-set-aside.png")
    for name in ("Queen of clubs", "Queen of diamonds", "Queen of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    page.get_by_role("button", name="Lay down").click()

    prompt = prompt_for(page, "add")
    assert "K♠" in prompt
    pick(page, "King of spades")
    page.locator('#melds-us button[data-rank="K"]').click()

    prompt = prompt_for(page, "discard")
    assert "5♣" in prompt and "Discard" in prompt
    pick(page, "Five of clubs")
    page.get_by_role("button", name="Discard").click()

    prompt = prompt_for(page, "take_pile")
    assert "9♣ 9♦" in prompt and "Take pile" in prompt
    # the computer seats play; East throws the promised 9 and it is the newcomer's turn
    page.wait_for_function("document.querySelector('#turn-banner').classList.contains('mine')", timeout=60000)
    shot(page, "lesson-3-take-pile.png")
    pick(page, "Nine of clubs")
    pick(page, "Nine of diamonds")
    page.get_by_role("button", name="Take pile").click()
    page.wait_for_selector('#melds-us [data-rank="9"]')

    prompt_for(page, "finished")
    offer = page.locator("#btn-real-game")
    assert offer.is_visible() and offer.inner_text() == "Start a real game"
    shot(page, "lesson-4-finished.png")
    message = page.locator("#message").inner_text()
    assert "must" not in message, message  # no refusal was met on the way
    lesson_url = page.url
    offer.click()
    page.wait_for_url(lambda url: url != lesson_url and "/g/" in url)
    page.wait_for_selector("#table[aria-busy=false]")
    real_game = page.url.rstrip("/").split("?")[0].rsplit("/", 1)[-1]
    assert page.request.get(f"{site.url}/api/games/{real_game}").json()["mode"] == "solo"
    assert page.locator("#lesson").count() == 0  # a real game: no lesson prompt
    assert page.foot_errors == []


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_at_phone_size_the_prompt_covers_neither_the_hand_nor_the_buttons(site, make_page):
    phone = make_page(PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    start_lesson(phone, site)
    prompt_for(phone, "draw")
    phone.get_by_role("button", name="Draw 2").click()
    prompt_for(phone, "first_meld")  # the longest prompt
    box = phone.locator("#lesson").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    for selector in ("#hand", "#controls"):
        other = phone.locator(selector).bounding_box()
        assert other is not None and not boxes_overlap(box, other), selector
    for card in phone.locator("#hand button.card").all()[:3]:
        assert not boxes_overlap(box, card.bounding_box())
    shot(phone, "lesson-phone.png")
    assert phone.foot_errors == []
