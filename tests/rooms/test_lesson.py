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
from games.rooms.lesson import (
    BASICS,
    FOOT,
    STEPS,
    YOU,
    current_step,
    in_hand_terms,
    lesson_position,
    lesson_state,
    off_course,
)
from games.rooms.lesson_room import AGAIN, MOUSE, OFF_COURSE, OFFERS, PROMPTS, TOUCH, prompt_text
from games.rooms.moves import apply_move


def play_bots(game: engine.Game) -> None:
    """The computer seats' turns up to South's, as the room plays them (games.bots.lesson)."""
    bots = {seat: make_bot("lesson", seed) for seed, seat in enumerate("WNE")}
    while (seat := game.turn) != YOU:
        assert seat is not None, "the deal ended before South's turn"
        game.apply(seat, bots[seat].act(game.view(seat)))


@pytest.mark.parametrize("part", [BASICS, FOOT])
def test_a_lesson_deal_is_a_valid_position_of_the_270_cards(part):  # R1, R9, R11, R22
    position = lesson_position(part)
    game = engine.Game.from_position(position)  # refuses anything but exactly the 270 cards, legal melds
    assert game.turn == YOU and game.phase == "draw"  # R8
    assert all(len(engine.parse_cards(position["feet"][seat] or "")) in (0, 13) for seat in "SWNE")
    assert lesson_position(part) == position  # fixed: no random seed


def test_the_basics_start_as_a_fresh_deal_one():  # R9, R37
    position = lesson_position(BASICS)
    assert engine.Game.from_position(position).first_meld_minimum() == 50
    assert all(len(engine.parse_cards(position["hands"][seat])) == 13 for seat in "SWNE")
    assert not position["melds"]["NS"] and not position["down"]["NS"]


def walk(part: str) -> tuple[engine.Game, list]:
    """The part played as a newcomer following every prompt: each step current before its
    action, done after it; the computer seats' turns in between."""
    game = engine.Game.from_position(lesson_position(part))
    actions: list = []
    steps = STEPS[part]
    for index, step in enumerate(steps[:-1]):
        assert current_step(part, game.to_position(), actions) == (index, step)
        for action in step.example:
            play_bots(game)
            assert not off_course(step, game.to_position()), step.key  # on the path all along
            checked = game.check(YOU, action)
            assert checked["ok"], (step.key, action, checked)
            game.apply(YOU, action)
            actions.append(action)
        assert step.done(game.to_position(), actions), step.key
    assert current_step(part, game.to_position(), actions) == (len(steps) - 1, steps[-1])
    return game, actions


def test_each_basics_step_is_reached_by_its_action_from_the_one_before():  # R25, R27, R37, R42, R21, R29
    game, actions = walk(BASICS)
    state = lesson_state(game.to_position(), actions)
    assert state["last"] is True and state["part"] == BASICS and state["next_part"] == FOOT
    # the lesson's table at the end: Kings of 4 (one added), Queens, and the 9s taken with the pile
    assert sorted(len(meld) for meld in game.melds["NS"]) == [3, 3, 4]


def test_each_foot_step_is_reached_by_its_action_from_the_one_before():  # R18, R44, R45, R34, R29a, R48, R49
    game = engine.Game.from_position(lesson_position(FOOT))
    assert not game.may_go_out(YOU)  # not in the foot, and the piles are not all there
    game, actions = walk(FOOT)
    assert game.deal == 2  # South went out: deal 1 is scored, the next one dealt (R55a)
    score = game.deal_scores[0]["NS"]
    assert score["going_out"] == 100 and score["red_threes"] == 100  # R54: the foot's red three laid
    assert score["piles"] == 3 * 500 + 2 * 300 + 1500  # Kings, Aces, Queens clean; 2 dirty; 1 wild (R49b, R54)
    state = lesson_state(game.to_position(), actions)
    assert state["last"] is True and state["next_part"] is None


def test_the_foot_lesson_shows_each_kind_of_pile_and_the_threes():  # R18, R34, R45, R29a
    game = engine.Game.from_position(lesson_position(FOOT))
    kinds = [engine.meld_status(meld) for meld in game.melds["NS"]]
    assert kinds.count("clean") == 2 and kinds.count("dirty") == 1 and "wild" not in kinds
    foot = game.feet[YOU]
    assert foot is not None and "3H" in foot and "3S" in foot  # a red three laid at pickup, a black to throw
    assert game.feet["N"] is None  # the partner already plays from the foot (R49c)


def test_neither_group_alone_reaches_the_first_meld_minimum():  # R37, R42: hence Set aside
    game = engine.Game.from_position(lesson_position())
    game.apply(YOU, {"type": "draw"})
    for cards in (["KC", "KD", "KH"], ["QC", "QD", "QH"]):
        refused = game.check(YOU, {"type": "meld", "groups": [{"cards": cards}]})
        assert not refused["ok"] and refused["code"] == "below_first_meld_minimum", refused


def test_east_throws_the_nine_the_take_pile_step_promises():  # R29
    game = engine.Game.from_position(lesson_position())
    for step in STEPS[BASICS][:4]:
        for action in step.example:
            play_bots(game)
            game.apply(YOU, action)
    play_bots(game)
    assert game.discard[-1] == "9H" and game.phase == "draw"


def test_a_step_is_not_done_by_an_other_action():  # the prompt waits for the right action
    position = lesson_position()
    assert current_step(BASICS, position, [{"type": "discard", "card": "5C"}])[1].key == "draw"
    assert current_step(BASICS, position, [{"type": "draw"}])[1].key == "first_meld"
    new_meld = {"type": "meld", "groups": [{"cards": ["KC", "KD", "KH"]}]}
    down = {**position, "down": {"NS": True, "EW": False}}
    assert current_step(BASICS, down, [{"type": "draw"}, new_meld])[1].key == "add"
    foot = lesson_position(FOOT)
    played = [{"type": "draw"}, {"type": "discard", "card": "7C"}]
    assert current_step(FOOT, foot, played)[1].key == "dirty_pile"  # a discard is not the black three


def test_every_step_has_a_prompt_in_english_german_and_bengali():
    keys = {step.key for steps in STEPS.values() for step in steps}
    now = {f"{step.key}_now" for steps in STEPS.values() for step in steps if step.now}
    assert set(PROMPTS) == keys | now
    texts = [*PROMPTS.values(), *(label for label, _game in OFFERS.values()), OFF_COURSE, AGAIN]
    for language in ("de", "bn"):
        with translation.override(language):
            for text in texts:
                assert translation.gettext(text) != text, (language, text)


def test_a_nine_thrown_away_puts_the_lesson_off_its_path():  # R29: the take needs the pair
    game = engine.Game.from_position(lesson_position())
    for action in [*STEPS[BASICS][0].example, *STEPS[BASICS][1].example, *STEPS[BASICS][2].example]:
        game.apply(YOU, action)
    game.apply(YOU, {"type": "discard", "card": "9C"})  # not the 5C the prompt asked for
    play_bots(game)
    actions = [{"type": "draw"}, *STEPS[BASICS][1].example, *STEPS[BASICS][2].example, {"type": "discard"}]
    _index, step = current_step(BASICS, game.to_position(), actions)
    assert step.key == "take_pile" and off_course(step, game.to_position())
    assert lesson_state(game.to_position(), actions)["off_course"] is True


def test_a_black_three_kept_one_turn_is_still_on_the_path():  # R25: the draw comes first
    game = engine.Game.from_position(lesson_position(FOOT))
    for step in STEPS[FOOT][:4]:
        for action in step.example:
            game.apply(YOU, action)
    game.apply(YOU, {"type": "discard", "card": "5S"})  # not the black three
    play_bots(game)
    assert game.phase == "draw" and not off_course(STEPS[FOOT][4], game.to_position())


def test_equal_cards_serve_a_step_and_the_next_prompts_name_the_cards_held():  # R21, R37: K♠ for K♣
    game = engine.Game.from_position(lesson_position())
    game.apply(YOU, {"type": "draw"})
    first_meld: dict = {"type": "meld", "groups": [{"cards": ["QH", "QD", "QC"]}, {"cards": ["KS", "KH", "KD"]}]}
    game.apply(YOU, first_meld)  # the Queens first, and K♠ where the prompt said K♣
    actions: list[dict] = [{"type": "draw"}, first_meld]
    state = lesson_state(game.to_position(), actions)
    assert state["step"] == "add" and not state["off_course"]
    assert state["cards"] == [["KC"]] and state["melds"] == ["K"]  # the King still held, highlighted
    with translation.override("en"):
        assert "Select K♣ and click your team's Kings." in prompt_text(state["prompt_key"], state["cards"], MOUSE)
    assert in_hand_terms({"type": "discard", "card": "3S"}, ["3C", "3H"]) == {"type": "discard", "card": "3C"}
    assert in_hand_terms({"type": "discard", "card": "3S"}, ["3D", "3H"])["card"] == "3S"  # a red three is no equal


def test_the_take_pile_prompt_follows_easts_throw():  # R29
    game = engine.Game.from_position(lesson_position())
    actions: list = []
    for step in STEPS[BASICS][:4]:
        for action in step.example:
            play_bots(game)
            game.apply(YOU, action)
            actions.append(action)
    state = lesson_state(game.to_position(), actions)
    assert state["step"] == "take_pile" and state["prompt_key"] == "take_pile"  # before East's turn
    play_bots(game)
    state = lesson_state(game.to_position(), actions)
    assert state["prompt_key"] == "take_pile_now" and state["buttons"] == ["btn-take"]
    with translation.override("en"):
        text = prompt_text(state["prompt_key"], state["cards"], TOUCH)
    assert text.startswith("East threw a 9. Select 9♣ 9♦ and tap Take pile") and "about to" not in text


@pytest.mark.parametrize(("language", "touch", "mouse"), [("en", "tap", "click"), ("de", "Tippe", "Klicke")])
def test_the_prompts_say_tap_on_a_touch_screen_and_click_with_a_mouse(language, touch, mouse, german_catalogue):
    with translation.override(language):
        assert touch in prompt_text("draw", [], TOUCH) and mouse not in prompt_text("draw", [], TOUCH)
        assert mouse in prompt_text("draw", [], MOUSE) and touch not in prompt_text("draw", [], MOUSE)


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
    assert step["step"] == "draw" and step["index"] == 0 and step["your_turn"] and step["offers"] == []
    apply_move(game_id, "S", {"type": "draw"}, 0)
    german = client.get(f"/api/games/{game_id}/lesson", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["step"] == "first_meld" and "Beiseitelegen" in german["prompt"]


@pytest.mark.django_db
def test_the_foot_part_is_made_by_its_level_and_a_bad_part_is_refused():
    client, token = browser()
    made = client.post(
        "/api/games", {"mode": "lesson", "level": "foot"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert made.status_code == 201
    game = Game.objects.get(pk=made.json()["id"])
    assert game.initial_position == lesson_position(FOOT)
    step = client.get(f"/api/games/{game.id}/lesson").json()
    assert step["part"] == FOOT and step["step"] == "piles"
    refused = client.post(
        "/api/games", {"mode": "lesson", "level": "chess"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bad_level"
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_the_end_of_the_basics_offers_the_foot_and_a_real_game(monkeypatch):
    client, token = browser()
    game_id = client.post(
        "/api/games", {"mode": "lesson"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    ).json()["id"]
    game = Game.objects.get(pk=game_id)
    finished, actions = walk(BASICS)
    game.position = finished.to_position()
    game.save()
    monkeypatch.setattr("games.rooms.lesson_room.south_actions", lambda _game: actions)
    step = client.get(f"/api/games/{game_id}/lesson").json()
    assert step["step"] == "finished" and step["last"]
    assert [offer["game"] for offer in step["offers"]] == [
        {"mode": "lesson", "level": "foot"},
        {"mode": "solo", "level": "normal"},
    ]


@pytest.mark.django_db
def test_off_its_path_the_lesson_offers_to_start_the_part_again(monkeypatch):
    client, token = browser()
    game_id = client.post(
        "/api/games", {"mode": "lesson"}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    ).json()["id"]
    game = Game.objects.get(pk=game_id)
    played = engine.Game.from_position(lesson_position())
    for action in [{"type": "draw"}, *STEPS[BASICS][1].example, *STEPS[BASICS][2].example]:
        played.apply(YOU, action)
    played.apply(YOU, {"type": "discard", "card": "9C"})
    play_bots(played)
    game.position = played.to_position()
    game.save()
    actions = [{"type": "draw"}, *STEPS[BASICS][1].example, *STEPS[BASICS][2].example, {"type": "discard"}]
    monkeypatch.setattr("games.rooms.lesson_room.south_actions", lambda _game: actions)
    step = client.get(f"/api/games/{game_id}/lesson", HTTP_ACCEPT_LANGUAGE="de").json()
    assert step["step"] == "take_pile" and step["off_course"] and "noch einmal" in step["prompt"]
    assert [offer["game"] for offer in step["offers"]] == [
        {"mode": "lesson", "level": "basics"},
        {"mode": "solo", "level": "normal"},
    ]


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
