"""Replays you can watch (games.watch, served by games.pages and games.api): a finished game move
by move with every hand open, computed by the engine from the stored initial position and moves
(R59: the deals and the actions decide everything). A daily only once its date is closed; an
unfinished game never; bad ids 404.
"""

import datetime
import uuid
from collections import Counter

import jsonpatch
import pytest
from django.test import Client

from games.engine import Game as EngineGame
from games.models import Game, Move
from games.replay import replay_steps
from leaderboards import daily
from tests.leaderboards.lb_support import play_to_the_end

pytestmark = pytest.mark.django_db
CLOSED_DATE = daily.today() - datetime.timedelta(days=2)


def stored_game(player, mode="solo", status="finished", seed=4242, moves=None, **fields):
    log = play_to_the_end(seed, 1)[:moves]
    game = Game.objects.create(
        mode=mode,
        seed=seed,
        seats={"S": {"player": str(player.pk)}, "W": {"bot": "easy"}, "N": {"bot": "easy"}, "E": {"bot": "easy"}},
        status=status,
        version=len(log),
        host=player,
        initial_position=EngineGame.new(seed).to_position(),
        **fields,
    )
    Move.objects.bulk_create([Move(game=game, seq=i + 1, seat=s, action=a) for i, (s, a) in enumerate(log)])
    return game


def views_of(answer: dict) -> list[dict]:
    views = [answer["first"]]
    for step in answer["steps"]:
        views.append(jsonpatch.apply_patch(views[-1], step["patch"]))
    return views


def test_a_finished_solo_game_replays_move_by_move_with_every_hand_open(make_player):
    anna = make_player("Anna")
    game = stored_game(anna)
    answer = Client().get(f"/api/watch/{game.pk}").json()  # a shared link: anyone may watch
    assert answer["total_steps"] == game.moves.count() + 1 == len(answer["steps"]) + 1
    assert answer["players"] == {"S": {"nickname": "Anna"}} and answer["seat"] is None
    views = views_of(answer)
    # The same replay as the boards' (games.replay, one engine replay), plus the hands.
    public = [step["view"] for step in replay_steps(game)]
    assert [{k: v for k, v in view.items() if k not in ("hands", "feet")} for view in views] == public
    for view in views:
        assert {seat: sum(hand.values()) for seat, hand in view["hands"].items()} == {
            seat: info["cards"] for seat, info in view["seats"].items()
        }
    assert views[-1]["phase"] == "over" and views[-1]["winner"] in ("NS", "EW", "draw")  # R56
    final = EngineGame.new(game.seed)
    for seat, action in play_to_the_end(game.seed, 1):
        final.apply(seat, action)
    assert views[-1]["scores"] == final.scores()
    assert [step["seq"] for step in answer["steps"]] == list(range(1, len(answer["steps"]) + 1))
    assert all("cards" not in e for step in answer["steps"] for e in step["events"] if e["type"] == "draw")


def test_every_foot_is_shown_until_it_is_picked_up(make_player):
    """The replay's frames carry each foot not yet picked up (R11, R44): the dealt cards, as many
    as the public view counts, and the seat left out from the move its foot is picked up."""
    game = stored_game(make_player("Anna"))
    answer = Client().get(f"/api/watch/{game.pk}").json()
    dealt = EngineGame.new(game.seed)
    assert answer["first"]["feet"] == {seat: dict(Counter(foot)) for seat, foot in dealt.feet.items()}
    assert all(sum(foot.values()) == 13 for foot in answer["first"]["feet"].values())
    views = views_of(answer)
    picked_up = set()
    for view in views:
        for seat, info in view["seats"].items():
            if info["in_foot"]:
                assert seat not in view["feet"]
            else:
                assert sum(view["feet"][seat].values()) == info["foot"]
        picked_up |= {seat for seat, info in view["seats"].items() if info["in_foot"]}
    assert picked_up, "no foot was ever picked up in the game: the test shows nothing"
    for step in answer["steps"]:  # a deal's end as it was: its feet still down are shown too
        if "deal_end" in step:
            ended = step["deal_end"]
            assert {seat for seat, info in ended["seats"].items() if not info["in_foot"]} == set(ended["feet"])


def test_the_player_of_the_game_is_told_their_seat(client, make_player):
    client.get("/api/session")
    from players.models import Player

    me = Player.objects.get(pk=client.session["player_id"])
    game = stored_game(me, mode="friends")
    assert client.get(f"/api/watch/{game.pk}").json()["seat"] == "S"
    page = client.get(f"/replay/{game.pk}/")
    assert page.status_code == 200 and 'data-game="' + str(game.pk) + '"' in page.content.decode()


def test_a_daily_is_refused_until_its_date_is_closed_even_to_its_player(client, make_player, finished_daily):
    client.get("/api/session")
    from players.models import Player

    me = Player.objects.get(pk=client.session["player_id"])
    today = finished_daily(me, daily.today())
    for who in (client, Client()):
        refused = who.get(f"/api/watch/{today.pk}")
        assert refused.status_code == 403 and refused.json()["code"] == "daily_not_over"
        assert "first" not in refused.json() and "steps" not in refused.json()
        page = who.get(f"/replay/{today.pk}/")
        assert page.status_code == 403
        tomorrow = (daily.today() + datetime.timedelta(days=1)).isoformat()
        assert f"after 00:10 UTC on {tomorrow}" in page.content.decode()
    closed = finished_daily(make_player("Bob"), CLOSED_DATE)
    assert Client().get(f"/api/watch/{closed.pk}").status_code == 200
    assert Client().get(f"/replay/{closed.pk}/").status_code == 200


def test_an_unfinished_game_is_never_shown(make_player):
    game = stored_game(make_player("Anna"), status="playing", moves=30)
    refused = Client().get(f"/api/watch/{game.pk}")
    assert refused.status_code == 403 and refused.json()["code"] == "not_finished"
    assert Client().get(f"/replay/{game.pk}/").status_code == 403


def test_bad_ids_answer_404():
    for path in (f"/api/watch/{uuid.uuid4()}", f"/replay/{uuid.uuid4()}/", "/api/watch/nope", "/replay/12/"):
        assert Client().get(path).status_code == 404, path


def test_a_replay_is_computed_once_then_cached(make_player, django_assert_max_num_queries):
    game = stored_game(make_player("Anna"))
    fresh = Client().get(f"/api/watch/{game.pk}").json()
    with django_assert_max_num_queries(4):  # the game, the viewer's session, the nicknames: no moves
        cached = Client().get(f"/api/watch/{game.pk}")
    assert cached.status_code == 200 and cached.json() == fresh  # the same replay, from the cache


def test_a_deal_that_ends_is_shown_as_it_ended_before_the_next_is_dealt(make_player, finished_daily):
    """R51–R53: a deal ends when a player goes out or the stock runs out; the engine deals the
    next one in the same move, so the step carries the finished deal's table (its deal_end event)
    with the hands as they were, and the next steps go on from the new deal."""
    game = finished_daily(make_player("Anna"), CLOSED_DATE)
    answer = Client().get(f"/api/watch/{game.pk}").json()
    views = views_of(answer)
    ends = [(index, step) for index, step in enumerate(answer["steps"], start=1) if "deal_end" in step]
    assert [step["deal_end"]["deal"] for _, step in ends] == [1, 2, 3]  # deal 4 ends the game (R55)
    for index, step in ends:
        shown, table = step["deal_end"], next(e for e in step["events"] if e["type"] == "deal_end")["table"]
        assert {key: shown[key] for key in table} == table and shown["turn"] is None
        assert views[index]["deal"] == shown["deal"] + 1  # the step's own view is the new deal's
        assert shown["scores"] == views[index]["scores"]  # with the finished deal scored
        for seat, hand in shown["hands"].items():
            if seat != step["seat"]:
                assert hand == views[index - 1]["hands"][seat]  # only the mover's cards moved
            if hand is not None:
                assert sum(hand.values()) == shown["seats"][seat]["cards"]


def test_replays_are_rate_limited_per_session_and_a_refusal_builds_nothing(settings, make_player):
    settings.FOOT_LIMIT_REPLAY_SESSION = "2/60"
    game = stored_game(make_player("Anna"))
    watcher = Client()
    watcher.get("/api/session")  # a session of its own (one without a cookie counts by its network)
    assert [watcher.get(f"/api/watch/{game.pk}").status_code for _ in range(2)] == [200, 200]
    refused = watcher.get(f"/api/watch/{uuid.uuid4()}")  # guessing ids counts as well
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused.json()["message"] and int(refused["Retry-After"]) >= 1
    other = Client()
    other.get("/api/session")
    assert other.get(f"/api/watch/{game.pk}").status_code == 200  # another session is counted apart
