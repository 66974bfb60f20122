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
    offers = page.locator("#lesson .lesson-offers button")
    assert offers.all_inner_texts() == ["Next: the foot and going out", "Start a real game"]
    shot(page, "lesson-4-basics-done.png")
    message = page.locator("#message").inner_text()
    assert "must" not in message, message  # no refusal was met on the way
    basics_url = page.url
    offers.first.click()
    page.wait_for_url(lambda url: url != basics_url and "/g/" in url)
    page.wait_for_selector("#table[aria-busy=false]")
    follow_the_foot_part(page)

    lesson_url = page.url
    page.get_by_role("button", name="Start a real game").click()
    page.wait_for_url(lambda url: url != lesson_url and "/g/" in url)
    page.wait_for_selector("#table[aria-busy=false]")
    real_game = page.url.rstrip("/").split("?")[0].rsplit("/", 1)[-1]
    assert page.request.get(f"{site.url}/api/games/{real_game}").json()["mode"] == "solo"
    assert page.locator("#lesson").count() == 0  # a real game: no lesson prompt
    assert page.foot_errors == []


def follow_the_foot_part(page) -> None:  # R18 R44 R45 R34 R29a R48 R49
    """Part 2: the kinds of piles, into the foot, the red and the black three, going out."""
    prompt = prompt_for(page, "piles")
    assert "clean" in prompt and "dirty" in prompt and "wild" in prompt
    page.get_by_role("button", name="Draw 2").click()

    assert "2♣" in prompt_for(page, "dirty_pile")
    pick(page, "Two of clubs")
    page.locator('#melds-us button[data-rank="8"]').click()

    assert "Joker" in prompt_for(page, "wild_pile")
    pick(page, "Joker")
    page.locator('#melds-us button[data-rank="wild"]').click()

    assert "7s" in prompt_for(page, "foot")
    for name in ("Seven of clubs", "Seven of clubs", "Seven of diamonds", "Seven of hearts", "Seven of spades"):
        pick(page, name)
    page.get_by_role("button", name="Meld").click()

    prompt = prompt_for(page, "black_three")  # the foot came up, its red three laid at once
    assert "red three" in prompt and "3♠" in prompt
    shot(page, "lesson-5-foot.png")
    pick(page, "Three of spades")
    page.get_by_role("button", name="Discard").click()

    assert "go out" in prompt_for(page, "go_out")
    page.wait_for_function("document.querySelector('#turn-banner').classList.contains('mine')", timeout=60000)
    page.get_by_role("button", name="Draw 2").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 14")  # R27: 12 + 2
    for name in ["Queen of clubs"] * 2 + ["Queen of diamonds"] * 2 + ["Queen of hearts"] * 2 + ["Queen of spades"]:
        pick(page, name)
    page.get_by_role("button", name="Meld").click()
    page.wait_for_selector('#melds-us [data-rank="Q"]')
    for name in ["Jack of clubs"] * 2 + ["Jack of diamonds"] * 2 + ["Jack of hearts", "Jack of spades"]:
        pick(page, name)
    page.get_by_role("button", name="Meld").click()
    page.wait_for_function("document.querySelectorAll('#hand button.card').length === 1")
    pick(page, "Five of spades")
    page.get_by_role("button", name="Discard").click()
    dialog = page.get_by_role("dialog", name="Deal 1 is over")
    dialog.wait_for()
    shot(page, "lesson-6-out.png")
    page.get_by_role("button", name="Next deal").click()
    assert "went out" in prompt_for(page, "finished_foot")
    assert page.locator("#lesson .lesson-offers button").all_inner_texts() == ["Start a real game"]
    shot(page, "lesson-7-done.png")


def marked(page, selector: str = "#hand button.card.lesson-mark") -> list[str]:
    """The codes (or ids) of what the lesson highlights among `selector`'s elements."""
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.code || e.id)")


def test_equal_cards_serve_the_lesson_which_highlights_and_follows_what_happened(site, page):  # R21 R37 R29
    """Issue 29: asked for K♣ K♦ K♥, a newcomer who picks K♠ K♦ K♥ stays on the lesson's path;
    the next prompt names the King still held (K♣); the cards, buttons and melds to press are
    highlighted; a desktop is told "click"; once East threw the 9 the prompt says so."""
    start_lesson(page, site)
    prompt = prompt_for(page, "draw")
    assert "click Draw 2" in prompt and "tap" not in prompt.lower()
    assert marked(page, "#controls .lesson-mark") == ["btn-draw"]
    page.get_by_role("button", name="Draw 2").click()

    prompt_for(page, "first_meld")
    page.wait_for_function("document.querySelectorAll('#hand button.card.lesson-mark').length === 6")
    assert sorted(marked(page)) == ["KC", "KD", "KH", "QC", "QD", "QH"]
    for name in ("Queen of hearts", "Queen of clubs", "Queen of diamonds"):  # the Queens first: any order
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    for name in ("King of spades", "King of hearts", "King of diamonds"):  # K♠, not the K♣ asked for
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    page.get_by_role("button", name="Lay down").click()

    prompt = prompt_for(page, "add")
    assert "Select K♣ and click your team's Kings" in prompt
    page.wait_for_function("document.querySelectorAll('#melds-us button.lesson-mark').length === 1")
    assert marked(page) == ["KC"]
    assert page.locator('#melds-us button.lesson-mark[data-rank="K"]').count() == 1
    shot(page, "lesson-equal-cards.png")
    pick(page, "King of clubs")
    page.locator('#melds-us button[data-rank="K"]').click()

    prompt_for(page, "discard")
    pick(page, "Five of clubs")
    page.get_by_role("button", name="Discard").click()
    page.wait_for_function("document.querySelector('#turn-banner').classList.contains('mine')", timeout=60000)
    page.wait_for_function("document.querySelector('#lesson-text').textContent.startsWith('East threw a 9')")
    prompt = page.locator("#lesson-text").inner_text()
    assert "about to" not in prompt and "9♣ 9♦" in prompt
    assert marked(page, "#controls .lesson-mark") == ["btn-take"]
    assert sorted(marked(page)) == ["9C", "9D"]
    assert page.locator("#lesson .lesson-offers button").count() == 0  # still on the lesson's path
    assert page.foot_errors == []


def boxes_overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_at_phone_size_the_prompt_covers_neither_the_hand_nor_the_buttons(site, make_page):
    # In Bengali: the prompts come from the server in the page's language.
    phone = make_page(PHONE, locale="bn-BD", is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.goto(site.url + "/")
    phone.locator("#play-lesson").click()
    phone.wait_for_url(re.compile(r"/g/[0-9a-f-]+/"))
    phone.wait_for_selector("#table[aria-busy=false]")
    assert "২টি তুলুন" in prompt_for(phone, "draw")  # "Draw 2", as the button says
    phone.locator("#btn-draw").click()
    prompt = prompt_for(phone, "first_meld")  # the longest prompt of the basics
    assert "আলাদা রাখুন" in prompt and "নামিয়ে দিন" in prompt  # Set aside, Lay down
    assert "ট্যাপ করুন" in prompt and "ক্লিক" not in prompt  # a touch screen: "tap", not "click"
    box = phone.locator("#lesson").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    for selector in ("#hand", "#controls", "#turn-banner"):
        other = phone.locator(selector).bounding_box()
        assert other is not None and not boxes_overlap(box, other), selector
    for card in phone.locator("#hand button.card").all():
        assert not boxes_overlap(box, card.bounding_box())
    shot(phone, "lesson-phone.png")
    assert phone.foot_errors == []


def test_off_the_lessons_path_the_part_can_be_started_again(site, page):  # R29: the take needs the pair
    start_lesson(page, site)
    prompt_for(page, "draw")
    page.get_by_role("button", name="Draw 2").click()
    prompt_for(page, "first_meld")
    for name in ("King of clubs", "King of diamonds", "King of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    for name in ("Queen of clubs", "Queen of diamonds", "Queen of hearts"):
        pick(page, name)
    page.get_by_role("button", name="Set aside").click()
    page.get_by_role("button", name="Lay down").click()
    prompt_for(page, "add")
    pick(page, "King of spades")
    page.locator('#melds-us button[data-rank="K"]').click()
    prompt_for(page, "discard")
    pick(page, "Nine of clubs")  # not the 5♣ the prompt names: the pile can no longer be taken
    page.get_by_role("button", name="Discard").click()
    again = page.get_by_role("button", name="Start this part again")
    again.wait_for(timeout=60000)
    assert "Start this part again" in page.locator("#lesson-text").inner_text()
    lesson_url = page.url
    again.click()
    page.wait_for_url(lambda url: url != lesson_url and "/g/" in url)
    page.wait_for_selector("#table[aria-busy=false]")
    assert "Draw 2" in prompt_for(page, "draw")
    assert page.foot_errors == []
