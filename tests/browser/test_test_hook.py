"""The test-only route that starts a game from a prepared position exists only when the
setting FOOT_TEST_HOOKS is on: by default it answers 404 and touches nothing."""

import json

import pytest
from django.test import Client

from games.engine import Game as EngineGame
from games.models import Game, Move
from testsupport.bench_load import spread_start


def test_position_hook_is_off_by_default(settings):
    settings.FOOT_TEST_HOOKS = False
    answer = Client().post("/test/start-position", data=json.dumps({"position": {}}), content_type="application/json")
    assert answer.status_code == 404


def test_position_hook_refuses_anything_but_post(settings):
    settings.FOOT_TEST_HOOKS = True
    assert Client().get("/test/start-position").status_code == 405


def played_moves(seed: int, count: int) -> tuple[dict, list]:
    """A deal's start and its first `count` moves, as bench_load --spread sends them."""
    body = spread_start(seed, 0.5)
    assert len(body["moves"]) >= count
    return body["position"], body["moves"][:count]


@pytest.mark.django_db
def test_position_hook_stores_the_moves_played_from_it_as_the_games_log(settings):
    settings.FOOT_TEST_HOOKS = True
    start, moves = played_moves(4242, 40)
    answer = Client().post(
        "/test/start-position", data=json.dumps({"position": start, "moves": moves}), content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(id=answer.json()["id"])
    assert game.initial_position == start and game.version == 40
    stored = list(game.moves.order_by("seq").values_list("seq", "seat", "action", "reason"))
    assert [(seq, seat) for seq, seat, _, _ in stored] == [(n, seat) for n, (seat, _) in enumerate(moves, 1)]
    assert all(reason is None for *_, reason in stored)  # as a person's moves
    replayed = EngineGame.from_position(start)
    for _, seat, action, _ in stored:
        replayed.apply(seat, action)
    assert game.position == replayed.to_position()


@pytest.mark.django_db
def test_position_hook_refuses_an_illegal_move_and_makes_no_game(settings):
    settings.FOOT_TEST_HOOKS = True
    start, moves = played_moves(4242, 3)
    moves[2] = [moves[2][0], {"type": "discard", "card": "XX"}]
    for bad in (moves, "not a list", [["S"]]):
        answer = Client().post(
            "/test/start-position", data=json.dumps({"position": start, "moves": bad}), content_type="application/json"
        )
        assert answer.status_code == 400 and answer.json()["code"], answer.content
    assert not Game.objects.exists() and not Move.objects.exists()
