"""House rules through the API (issue 25, docs/RULES.md §17): POST /api/games takes `rules`, the
game stores them and every reader gets them; bad rules are refused with a code naming the
problem and nothing is made; the daily is always standard; a one-deal game ends after deal 1."""

import pytest
from django.test import Client

from games import bots
from games.engine import Game as EngineGame
from games.models import Game
from games.replay import replay
from games.rooms.moves import apply_move
from games.rooms.seat_views import state_message
from players.models import Player

from .test_api import browser, post

pytestmark = pytest.mark.django_db

STANDARD_RULES = {
    "deals": 4,
    "hand_size": 13,
    "minimums": [50, 90, 120, 150],
    "clean_piles": 2,
    "dirty_piles": 2,
    "wild_piles": 1,
    "pile_take": 7,
    "red_three_value": 100,
    "undo": False,
}


def stored_position(game_id) -> dict:
    position = Game.objects.get(pk=game_id).position
    assert position is not None, "the game has started"
    return position


def test_a_game_without_rules_is_standard_and_says_so():
    client, session = browser()
    answer = post(client, "/api/games", {"mode": "solo", "level": "easy", "rules": {"undo": False}}, session["csrf"])
    assert answer.status_code == 201 and answer.json()["rules"] == STANDARD_RULES
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.rules == {} and "rules" not in stored_position(game.id)  # the notation of a standard game
    assert state_message(game, "S")["rules"] == STANDARD_RULES


def test_house_rules_are_stored_dealt_and_given_whole_in_the_state():  # R11, R37
    client, session = browser()
    chosen = {"deals": 2, "hand_size": 11, "minimums": [0, 60, 120, 150], "pile_take": 270}
    answer = post(client, "/api/games", {"mode": "solo", "level": "easy", "rules": chosen}, session["csrf"])
    assert answer.status_code == 201
    expected = {**STANDARD_RULES, **chosen, "undo": True}  # V7: on in a solo game unless it says otherwise
    assert answer.json()["rules"] == expected
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.rules == expected and stored_position(game.id)["rules"] == expected
    dealt = EngineGame.from_position(game.position)
    assert all(len(dealt.feet[seat] or []) == 11 for seat in "SWNE")
    state = state_message(game, "S")
    assert state["rules"] == expected and state["view"]["first_meld_minimum"] == 0
    assert client.get("/api/games").json()["games"][0]["deals"] == 2


@pytest.mark.parametrize(
    "body, code, named",
    [
        ({"mode": "solo", "rules": {"deals": 5}}, "rule_out_of_range", "'deals' must be 1 to 4, not 5"),
        ({"mode": "solo", "rules": {"deals": "one"}}, "bad_rule_type", "'deals' must be a whole number"),
        ({"mode": "solo", "rules": {"jokers_wild": True}}, "unknown_rule", "'jokers_wild'"),
        ({"mode": "friends", "rules": {"minimums": [50, 90]}}, "bad_rule_type", "'minimums'"),
        ({"mode": "solo", "rules": {"wild_piles": 4, "dirty_piles": 4}}, "unplayable_rules", "32 wild cards"),
        ({"mode": "solo", "rules": "quick"}, "bad_rule_type", "rules must be a JSON object"),
        ({"mode": "daily", "rules": {"deals": 1}}, "standard_rules_only", "standard"),
        ({"mode": "daily", "rules": {}}, "standard_rules_only", "standard"),
        ({"mode": "daily", "rules": {"undo": True}}, "standard_rules_only", "standard"),  # V7: never in the daily
        ({"mode": "solo", "rules": {"undo": "yes"}}, "bad_rule_type", "'undo' must be true or false"),
        ({"mode": "friends", "rules": {"undo": 1}}, "bad_rule_type", "'undo' must be true or false"),
    ],
)
def test_bad_rules_are_refused_naming_the_problem_and_nothing_is_made(body, code, named):
    client = Client(enforce_csrf_checks=True)
    token = client.get("/api/session").json()["csrf"]
    players = Player.objects.count()
    answer = post(client, "/api/games", body, token)
    assert answer.status_code == 400
    assert answer.json()["code"] == code and named in answer.json()["message"]
    assert not Game.objects.exists() and Player.objects.count() == players


def test_a_friends_lobby_keeps_its_rules_until_the_host_starts(settings):
    client, session = browser()
    made = post(client, "/api/games", {"mode": "friends", "rules": {"red_three_value": 300}}, session["csrf"])
    assert made.status_code == 201 and made.json()["rules"]["red_three_value"] == 300
    guest, guest_session = browser()
    joined = post(guest, f"/api/games/{made.json()['id']}/join", {}, guest_session["csrf"])
    assert joined.json()["rules"]["red_three_value"] == 300  # the guest sees them before play
    started = post(client, f"/api/games/{made.json()['id']}/start", {}, session["csrf"])
    assert started.status_code == 200
    game = Game.objects.get(pk=made.json()["id"])
    assert EngineGame.from_position(game.position).rules.red_three_value == 300


def test_a_one_deal_game_made_through_the_api_is_over_after_deal_1():  # R55a, R56
    client, session = browser()
    answer = post(client, "/api/games", {"mode": "solo", "level": "easy", "rules": {"deals": 1}}, session["csrf"])
    game_id = answer.json()["id"]
    players = {seat: bots.make_bot("easy", index) for index, seat in enumerate("SWNE")}
    version = 0
    while True:
        engine_game = EngineGame.from_position(stored_position(game_id))
        seat = engine_game.turn
        if seat is None:
            break
        apply_move(game_id, seat, players[seat].act(engine_game.view(seat)), version)
        version += 1
    game = Game.objects.get(pk=game_id)
    position = stored_position(game_id)
    assert game.status == Game.FINISHED and position["phase"] == "over"
    assert position["deal"] == 1 and len(position["scores"]) == 1
    assert replay(game).to_position() == position  # the stored moves reproduce the game exactly
    state = state_message(game, "S")
    assert state["view"]["winner"] in ("NS", "EW", "draw")
    assert state["view"]["scores"]["totals"] == {team: position["scores"][0][team]["total"] for team in ("NS", "EW")}


def test_play_again_keeps_the_house_rules():
    host, host_session = browser()
    chosen = {"deals": 1, "pile_take": 10}
    lobby = post(host, "/api/games", {"mode": "friends", "level": "easy", "rules": chosen}, host_session["csrf"]).json()
    assert post(host, f"/api/games/{lobby['id']}/start", {}, host_session["csrf"]).status_code == 200
    Game.objects.filter(pk=lobby["id"]).update(status=Game.FINISHED)
    again = post(host, f"/api/games/{lobby['id']}/again", {}, host_session["csrf"]).json()
    assert again["id"] != lobby["id"] and again["rules"] == {**STANDARD_RULES, **chosen}
    assert post(host, f"/api/games/{again['id']}/start", {}, host_session["csrf"]).status_code == 200
    assert stored_position(again["id"])["rules"]["pile_take"] == 10


def test_the_host_changes_the_lobbys_rules_and_only_the_host_before_the_start():
    host, host_session = browser()
    lobby = post(host, "/api/games", {"mode": "friends"}, host_session["csrf"]).json()
    guest, guest_session = browser()
    post(guest, f"/api/games/{lobby['id']}/join", {}, guest_session["csrf"])
    url = f"/api/games/{lobby['id']}/rules"
    refused = post(guest, url, {"rules": {"deals": 1}}, guest_session["csrf"])
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    bad = post(host, url, {"rules": {"deals": 9}}, host_session["csrf"])
    assert bad.status_code == 400 and bad.json()["code"] == "rule_out_of_range"
    assert Game.objects.get(pk=lobby["id"]).rules == {}  # nothing changed by a refusal
    changed = post(host, url, {"rules": {"deals": 1}}, host_session["csrf"])
    assert changed.status_code == 200 and changed.json()["rules"]["deals"] == 1
    assert state_message(Game.objects.get(pk=lobby["id"]), "N")["rules"]["deals"] == 1  # the guest sees them
    assert post(host, url, {"rules": {}}, host_session["csrf"]).json()["rules"] == STANDARD_RULES
    post(host, url, {"rules": {"deals": 2}}, host_session["csrf"])
    post(host, f"/api/games/{lobby['id']}/start", {}, host_session["csrf"])
    late = post(host, url, {"rules": {"deals": 1}}, host_session["csrf"])
    assert late.status_code == 409 and late.json()["code"] == "already_started"
    assert stored_position(lobby["id"])["rules"]["deals"] == 2


def test_undo_is_on_in_a_solo_game_unless_chosen_off_and_off_in_a_friends_game_unless_chosen():  # V7
    client, session = browser()
    made = {
        name: post(client, "/api/games", body, session["csrf"]).json()
        for name, body in {
            "solo": {"mode": "solo"},
            "solo_off": {"mode": "solo", "rules": {"deals": 1, "undo": False}},
            "friends": {"mode": "friends"},
            "friends_on": {"mode": "friends", "rules": {"undo": True}},
        }.items()
    }
    assert {name: game["rules"]["undo"] for name, game in made.items()} == {
        "solo": True,
        "solo_off": False,
        "friends": False,
        "friends_on": True,
    }
    solo = Game.objects.get(pk=made["solo"]["id"])
    assert stored_position(solo.id)["rules"]["undo"] is True  # the notation carries it (a replay needs it)
    assert state_message(solo, "S")["rules"]["undo"] is True


def test_the_host_turns_undo_on_in_the_lobby():  # V7: a friends game only if the table chose it
    host, host_session = browser()
    lobby = post(host, "/api/games", {"mode": "friends"}, host_session["csrf"]).json()
    changed = post(host, f"/api/games/{lobby['id']}/rules", {"rules": {"undo": True}}, host_session["csrf"])
    assert changed.status_code == 200 and changed.json()["rules"]["undo"] is True
    assert post(host, f"/api/games/{lobby['id']}/start", {}, host_session["csrf"]).status_code == 200
    assert EngineGame.from_position(stored_position(lobby["id"])).rules.undo is True
