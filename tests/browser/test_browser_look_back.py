"""The look back after a deal (issue #14 item 6), in the browser: a deal played to its end by
clicking, then "Look back" in the deal's score: a short "Thinking…", then the decisions the hard
search would have played otherwise, each in the hint's words with its estimated cost, or the
message that it agreed. In English and German at desk size, in Bengali on a phone; a screenshot
of the answer goes to the screenshots folder (conftest)."""

import json
import re

import pytest
from django.utils import translation
from playwright.sync_api import WebSocketRoute, expect

from games.messages import render_error

from .conftest import CORNER, DESK, PHONE, SCREENSHOTS, open_table, start_game_from, version
from .test_table_fits import MY_TURN_OR_DEAL_END, late_deal_position

pytestmark = pytest.mark.browser

WORDS = {  # the button, the agreement, an item's line (of the three: docs/PROTOCOL.md, `look_back`), Next deal
    "en": (
        "Look back",
        "Nothing to look back on",
        (
            r"You: .+(\. The hard computer's search preferred|, as the hint suggested\. A deeper look found"
            r"|\. The hint suggested): .+, worth about \+[\d,]+ points\."
        ),
        "Next deal",
    ),
    "de": (
        "Rückblick",
        "Nichts zum Zurückblicken",
        (
            r"Du: .+(\. Die Suche des Computers \(Schwer\) hätte lieber|, wie der Tipp es vorschlug\. Ein genauerer"
            r" Blick fand|\. Der Tipp schlug vor): .+, etwa \+[\d.]+ Punkte wert\."
        ),
        "Nächste Runde",
    ),
    "bn": (
        "ফিরে দেখুন",
        "ফিরে দেখার কিছু নেই",
        (
            r"আপনি: .+(। কঠিন কম্পিউটারের হিসাবে ভালো ছিল|, যেমন ইঙ্গিতে বলা ছিল। আরও গভীরভাবে দেখে পাওয়া গেল"
            r"|। ইঙ্গিতে বলা ছিল): .+, মূল্য প্রায় \+[০-৯,]+ পয়েন্ট।"
        ),
        "পরের দান",
    ),
}
PAGES = {
    "en": (DESK, "en-GB", {}),
    "de": (DESK, "de-DE", {}),
    "bn": (PHONE, "bn-BD", {"is_mobile": True, "has_touch": True}),
}


def play_to_the_deals_end(page) -> None:
    """South's turns by clicking (Draw 2, then discard the first card) until the deal ends: the
    late-deal position's opponents are in their feet with a few cards and go out soon."""
    for _turn in range(8):
        if page.locator("#btn-draw").is_enabled():
            since = version(page)
            page.locator("#btn-draw").click()
            page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {since}")
        page.locator("#hand .card").first.click(position=CORNER)
        since = version(page)
        page.locator("#btn-discard").click()
        page.wait_for_function(MY_TURN_OR_DEAL_END.format(since=since + 7), timeout=60000)
        if page.locator("#deal-end").is_visible():
            return
    pytest.fail("the deal did not end in eight turns")


@pytest.mark.parametrize("language", list(WORDS))
def test_look_back_after_a_deal_shows_the_searchs_items_or_its_agreement(site, make_page, language):
    size, locale, options = PAGES[language]
    page = make_page(size, locale=locale, **options)
    button, agreed, item_line, next_deal = WORDS[language]
    open_table(page, site, start_game_from(page, site, late_deal_position(), level="easy"))
    play_to_the_deals_end(page)
    dialog = page.locator("#deal-end")
    dialog.get_by_role("button", name=button).click()
    expect(dialog.get_by_role("button", name=button)).to_be_disabled()  # asked once
    answer = dialog.locator(".look-back")
    expect(answer.locator("li, p").first).to_be_visible()
    expect(answer.locator("li").or_(answer.get_by_text(agreed)).first).to_be_visible(timeout=60000)
    items = answer.locator("li")
    if items.count():
        assert items.count() <= 3
        for text in items.all_inner_texts():
            assert re.fullmatch(item_line, text), text
    page.screenshot(path=str(SCREENSHOTS / f"look-back-{language}.png"))
    assert page.foot_errors == []
    dialog.get_by_role("button", name=next_deal).click()
    assert not dialog.is_visible()


def test_a_look_back_refused_for_now_says_so_and_can_be_asked_again(site, make_page):
    """ "Press Look back again in a minute" must leave a button to press: the server's first answer
    is replaced by its `look_back_later` refusal (as a machine busy with moves gives it), the second
    goes through."""
    page = make_page(DESK, locale="en-GB")
    with translation.override("en"):
        later = render_error("look_back_later", "en")
    asked: list[dict] = []

    def relay(route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "look_back":
                asked.append(frame)
                if len(asked) == 1:
                    route.send(
                        json.dumps({"type": "error", "code": "look_back_later", "message": later, "ref": frame["ref"]})
                    )
                    return
            server.send(message)

        route.on_message(from_page)
        server.on_message(route.send)

    page.route_web_socket(re.compile(r"/ws/game/"), relay)
    open_table(page, site, start_game_from(page, site, late_deal_position(), level="easy"))
    play_to_the_deals_end(page)
    dialog = page.locator("#deal-end")
    button = dialog.get_by_role("button", name="Look back")
    button.click()
    expect(dialog.locator(".look-back")).to_have_text(later)
    assert "Press Look back again in a minute" in later
    expect(button).to_be_enabled()  # what the message says to do can be done
    button.click()
    answer = dialog.locator(".look-back")
    expect(answer.locator("li").or_(answer.get_by_text("Nothing to look back on")).first).to_be_visible(timeout=60000)
    assert len(asked) == 2 and page.foot_errors == []


KINDS = {  # an item's sentence for each place of the hint (the server's `hint`), per language
    "en": {
        "played": r"You: .+, as the hint suggested\. A deeper look found: .+, worth about \+400 points\.",
        "better": r"You: .+\. The hint suggested: .+, worth about \+300 points\.",
        None: r"You: .+\. The hard computer's search preferred: .+, worth about \+200 points\.",
    },
    "de": {
        "played": r"Du: .+, wie der Tipp es vorschlug\. Ein genauerer Blick fand: .+, etwa \+400 Punkte wert\.",
        "better": r"Du: .+\. Der Tipp schlug vor: .+, etwa \+300 Punkte wert\.",
        None: r"Du: .+\. Die Suche des Computers \(Schwer\) hätte lieber: .+, etwa \+200 Punkte wert\.",
    },
    "bn": {
        "played": r"আপনি: .+, যেমন ইঙ্গিতে বলা ছিল। আরও গভীরভাবে দেখে পাওয়া গেল: .+, মূল্য প্রায় \+৪০০ পয়েন্ট।",
        "better": r"আপনি: .+। ইঙ্গিতে বলা ছিল: .+, মূল্য প্রায় \+৩০০ পয়েন্ট।",
        None: r"আপনি: .+। কঠিন কম্পিউটারের হিসাবে ভালো ছিল: .+, মূল্য প্রায় \+২০০ পয়েন্ট।",
    },
}


def item_of(hint: str | None, points: int) -> dict:
    return {
        "move": 3,
        "deal": 3,
        "played": {"type": "draw"},
        "better": {"type": "take_pile", "cards": ["9H", "9C"]},
        "played_parts": [{"do": "draw"}],
        "better_parts": [{"do": "take_pile", "cards": ["9H", "9C"], "points": None}],
        "points": points,
        "worlds": 20,
        "hint": hint,
    }


@pytest.mark.parametrize("language", list(KINDS))
def test_each_item_says_where_the_hint_stood(site, make_page, language):  # issue #27 item 3
    """The page never calls a hinted move a mistake: it says what the server's `hint` says (the
    items stand in for the server's answer, as a deal's look back may give any of the three)."""
    size, locale, options = PAGES[language]
    page = make_page(size, locale=locale, **options)
    items = [item_of("played", 400), item_of("better", 300), item_of(None, 200)]

    def relay(route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "look_back":
                frame["items"] = items
                message = json.dumps(frame)
            route.send(message)

        route.on_message(server.send)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/game/"), relay)
    open_table(page, site, start_game_from(page, site, late_deal_position(), level="easy"))
    play_to_the_deals_end(page)
    dialog = page.locator("#deal-end")
    dialog.get_by_role("button", name=WORDS[language][0]).click()
    lines = dialog.locator(".look-back li")
    expect(lines).to_have_count(3, timeout=60000)
    for text, hint in zip(lines.all_inner_texts(), ("played", "better", None), strict=True):
        assert re.fullmatch(KINDS[language][hint], text), text
    page.screenshot(path=str(SCREENSHOTS / f"look-back-hint-{language}.png"))
    assert page.foot_errors == []
