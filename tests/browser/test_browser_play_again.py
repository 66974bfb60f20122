"""Play again at the end of a friends game (issue 15, item 6), two browsers through the real Daphne:
the host goes out in the last deal (R49, R56: the game ends), presses "Play again" and lands in a new
lobby in the same seat; the friend, still on the old game's page, is offered the new table in the
game-over dialog, joins it with one click and sits where they sat; the host starts it."""

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import DESK, SCREENSHOTS, open_table
from .test_browser_my_games import last_deal_position
from .test_browser_play import finish_the_deal

pytestmark = pytest.mark.browser


def friends_game_from(host, friend, site, position) -> dict:
    """The test hook: a friends game from `position`, the host in South and the friend in North."""
    friend.goto(site.url + "/rules/")
    friend_id = friend.request.get(site.url + "/api/session").json()["player"]["id"]
    host.goto(site.url + "/rules/")
    answer = host.request.post(
        site.url + "/test/start-position",
        data=json.dumps({"position": position, "friends": {"N": friend_id}}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def test_play_again_opens_a_lobby_with_the_same_seats_and_the_friend_joins_it(site, make_page):
    host, friend = make_page(DESK), make_page(DESK)
    game = friends_game_from(host, friend, site, last_deal_position())
    open_table(host, site, game)
    open_table(friend, site, game)
    assert friend.evaluate("window.footTable.model.seat") == "N"
    finish_the_deal(host)
    for page in (host, friend):
        page.get_by_role("dialog", name="Your team wins!").wait_for()

    host.get_by_role("dialog").get_by_role("link", name="Play again").click()
    host.wait_for_url(re.compile(rf"/g/(?!{game['id']})[0-9a-f-]+/$"))  # a new table
    expect(host.locator("#lobby-title")).to_have_text("Your table")
    assert host.evaluate("window.footTable.model.seat") == "S"

    offer = friend.locator("#again-offer")
    expect(offer).to_contain_text("Friend (South, partner) opened a new table with the same seats.")
    friend.screenshot(path=SCREENSHOTS / "play-again-offer.png")
    friend.get_by_role("button", name="Join the new table").click()
    friend.wait_for_url(host.url)
    expect(friend.locator("#lobby-title")).to_have_text("Waiting for the host to start")
    friend.wait_for_function("window.footTable.model.seat === 'N'")  # the seat they had
    expect(host.locator('#lobby li[data-seat="N"]')).to_contain_text("Friend")
    host.screenshot(path=SCREENSHOTS / "play-again-lobby.png")

    host.get_by_role("button", name="Start the game").click()
    for page in (host, friend):
        page.wait_for_function("window.footTable.model.status === 'playing'")
    assert host.evaluate("window.footTable.model.seat") == "S" and friend.evaluate("window.footTable.model.seat") == "N"
    assert host.foot_errors == [] and friend.foot_errors == []
