"""House rules on the pages (issue 25, item 3): the home page offers the presets and custom rules,
every preset is a game the API makes, and the table says a game's house rules on demand."""

import json

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.messages import message_for
from games.presets import PRESETS, house_rules_line, rules_in_words

from .test_api import browser, post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_makes_a_game_through_the_api(key):
    client, session = browser()
    rules = PRESETS[key][1]
    answer = post(client, "/api/games", {"mode": "solo", "level": "easy", "rules": rules}, session["csrf"])
    assert answer.status_code == 201
    assert {name: answer.json()["rules"][name] for name in rules} == rules


def test_the_home_page_offers_the_presets_and_custom_rules_for_solo_and_friends():
    page = Client().get("/").content.decode()
    for which in ("solo", "friends"):
        assert f'id="rules-{which}"' in page and f'id="custom-{which}"' in page
    assert page.count('value="quick"') == 2 and page.count('value="custom"') == 2
    assert "Quick game: one deal" in page
    quick = json.dumps(PRESETS["quick"][1]).replace('"', "&quot;")
    assert f'data-rules="{quick}"' in page
    assert 'name="hand_size" min="9" max="15" value="13"' in page  # the engine's range and default


def test_rules_in_words_say_only_what_differs_from_the_standard():  # R7, R28, R35, R49b
    family = engine.Rules.from_json(PRESETS["family"][1])
    assert rules_in_words(family) == [
        "hands and feet of 11 cards",
        "going out with 1 clean, 1 dirty and 0 wild piles",
    ]
    quick = engine.Rules(deals=1, pile_take=270, red_three_value=300, minimums=(0, 90, 120, 150))
    assert house_rules_line(quick) == (
        "House rules: 1 deal; first meld at least 0 points; "
        "taking the discard pile takes all of it; red threes 300 points"
    )
    assert house_rules_line(engine.STANDARD) == ""
    with translation.override("de"):
        assert house_rules_line(engine.Rules(deals=2)) == "Hausregeln: 2 Runden"


def test_the_table_shows_a_games_house_rules_on_demand():
    client, session = browser()
    made = post(client, "/api/games", {"mode": "friends", "rules": {"deals": 2}}, session["csrf"]).json()
    guest_page = Client().get(made["url"]).content.decode()  # someone not seated sees them before they sit
    assert '<details id="house-rules"' in guest_page and "House rules: 2 deals" in guest_page
    standard = post(client, "/api/games", {"mode": "solo", "rules": {"undo": False}}, session["csrf"]).json()
    assert 'id="house-rules"' not in client.get(standard["url"]).content.decode()
    with_undo = post(client, "/api/games", {"mode": "solo"}, session["csrf"]).json()  # V7: on in a solo game,
    assert 'id="house-rules"' not in client.get(with_undo["url"]).content.decode()  # its player's own choice
    friends = post(client, "/api/games", {"mode": "friends", "rules": {"undo": True}}, session["csrf"]).json()
    guest_page = Client().get(friends["url"]).content.decode()  # the table chose it: guests see it before they sit
    assert "House rules: undo within a turn" in guest_page


GAP = {"reason": "…", "clean": 0, "dirty": 0, "wild": 2, "partner_in_foot": True}
HOUSE_GAP = {**GAP, "required_clean": 2, "required_dirty": 2, "required_wild": 3}


def test_the_going_out_refusal_says_the_tables_own_numbers():  # R49b
    assert message_for("cannot_go_out", params=GAP).startswith(
        "You can go out only with 2 clean, 2 dirty and 1 wild pile: you still need 2 wild piles."
    )
    assert message_for("cannot_go_out", params=HOUSE_GAP).startswith(
        "Your table's rules ask for 2 clean, 2 dirty and 3 wild piles to go out: you still need 2 wild piles."
    )
    with translation.override("de"):
        assert "2 reine, 2 unreine und 3 wilde" in message_for("cannot_go_out", params=HOUSE_GAP)
    with translation.override("bn"):
        assert "৩টি ওয়াইল্ড" in message_for("cannot_go_out", params=HOUSE_GAP)
