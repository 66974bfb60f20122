"""Learn to play: the lesson's prepared deal and its steps are consistent with the rules, and the
room serves the current step (games.rooms.lesson, games.rooms.lesson_room, games.bots.lesson).

The walk plays the lesson with the engine as a newcomer following every prompt would: South sends
each step's example action, the quiet lesson bots answer, and each step must be the current one
before its action and done after it.
"""

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.bots import make_bot
from games.models import Game
from games.rooms.lesson import STEPS, YOU, current_step, lesson_position, lesson_state
from games.rooms.lesson_room import PROMPTS
from games.rooms.moves import apply_move


def play_bots(game: engine.Game) -> None:
    """The computer seats' turns up to South's, as the room plays them (games.bots.lesson)."""
    bots = {seat: make_bot("lesson", seed) for seed, seat in enumerate("WNE")}
    while game.turn != YOU:
        seat = game.turn
        game.apply(seat, bots[seat].act(game.view(seat)))


def test_the_lesson_deal_is_a_valid_position_of_the_270_cards():  # R1, R9, R11, R22
    position = lesson_position()
    game = engine.Game.from_position(position)  # refuses anything but exactly the 270 cards, legal melds
    assert game.turn == YOU and game.phase == "draw" and game.first_meld_minimum() == 50  # R8, R37
    assert all(len(engine.parse_cards(position["hands"][seat])) == 13 for seat in "SWNE")
    assert all(len(engine.parse_cards(position["feet"][seat])) == 13 for seat in "SWNE")
    assert lesson_position() == position  # fixed: no random seed


def test_each_step_is_reached_by_its_action_from_the_one_before():  # R25, R27, R37, R42, R21, R29
    game = engine.Game.from_position(lesson_position())
    actions: list = []
    for index, step in enumerate(STEPS[:-1]):
        assert current_step(game.to_position(), actions) == (index, step)
        for action in step.example:
            play_bots(game)
            checked = game.check(YOU, action)
            assert checked["ok"], (step.key, action, checked)
            game.apply(YOU, action)
            actions.append(action)
        assert step.done(game.to_position(), actions), step.key
    assert current_step(game.to_position(), actions) == (len(STEPS) - 1, STEPS[-1])
    assert lesson_state(game.to_position(), actions)["last"] is True
    # the lesson's table at the end: Kings of 4 (one added), Queens, and the 9s taken with the pile
    assert sorted(len(meld) for meld in game.melds["NS"]) == [3, 3, 4]


def test_neither_group_alone_reaches_the_first_meld_minimum():  # R37, R42: hence Set aside
    game = engine.Game.from_position(lesson_position())
    game.apply(YOU, {"type": "draw"})
    for cards in (["KC", "KD", "KH"], ["QC", "QD", "QH"]):
        refused = game.check(YOU, {"type": "meld", "groups": [{"cards": cards}]})
        assert not refused["ok"] and refused["code"] == "below_first_meld_minimum", refused


def test_east_throws_the_nine_the_take_pile_step_promises():  # R29
    game = engine.Game.from_position(lesson_position())
    for step in STEPS[:4]:
        for action in step.example:
            play_bots(game)
            game.apply(YOU, action)
    play_bots(game)
    assert game.discard[-1] == "9H" and game.phase == "draw"


def test_a_step_is_not_done_by_an_other_action():  # the prompt waits for the right action
    position = lesson_position()
    assert current_step(position, [{"type": "discard", "card": "5C"}])[1].key == "draw"
    assert current_step(position, [{"type": "draw"}])[1].key == "first_meld"
    new_meld = {"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}]}
    down = {**position, "down": {"NS": True, "EW": False}}
    assert current_step(down, [{"type": "draw"}, new_meld])[1].key == "add"


def test_every_step_has_a_prompt_in_english_german_and_bengali():
    assert set(PROMPTS) == {step.key for step in STEPS}
    for language in ("de", "bn"):
        with translation.override(language):
            for key, text in PROMPTS.items():
                assert translation.gettext(text) != text, (language, key)


# --- the room: the mode, the API -----------------------------------------------------------------


def browser() -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    return client, client.get("/api/session").json()["csrf"]


@pytest.mark.django_db
def test_learn_to_play_starts_the_prepared_deal_unranked_with_lesson_bots():
    client, token = browser()
    answer = client.post("/api/games", {"mode": "lesson"}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 201
    body = answer.json()
    assert body["mode"] == "lesson" and body["ranked"] is False and body["seat"] == "S"
    game = Game.objects.get(pk=body["id"])
    assert game.initial_position == lesson_position() and game.status == Game.PLAYING
    assert {game.bot_level(seat) for seat in "WNE"} == {"lesson"}


@pytest.mark.django_db
def test_the_lesson_route_follows_the_stored_game_in_the_players_language():
    client, token = browser()
    game_id = client.post(
        "/api/games", {"mode": "lesson"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    ).json()["id"]
    step = client.get(f"/api/games/{game_id}/lesson").json()
    assert step["step"] == "draw" and step["index"] == 0 and step["your_turn"] and step["offer"] is None
    apply_move(game_id, "S", {"type": "draw"}, 0)
    german = client.get(f"/api/games/{game_id}/lesson", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["step"] == "first_meld" and "Beiseitelegen" in german["prompt"]


@pytest.mark.django_db
def test_the_lesson_route_refuses_other_games_and_other_players():
    client, token = browser()
    solo = client.post("/api/games", {"mode": "solo"}, content_type="application/json", HTTP_X_CSRFTOKEN=token).json()[
        "id"
    ]
    assert client.get(f"/api/games/{solo}/lesson").json()["code"] == "not_found"
    lesson = client.post(
        "/api/games", {"mode": "lesson"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    ).json()["id"]
    stranger, _token = browser()
    answer = stranger.get(f"/api/games/{lesson}/lesson")
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    assert Game.objects.get(pk=lesson).version == 0  # nothing changed
