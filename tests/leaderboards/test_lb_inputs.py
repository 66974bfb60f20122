"""Odd input to the leaderboards' views (issue #18, findings 3 and 4): clean 4xx answers, never a 500,
and replays that publish only the fields the engine reads."""

import datetime

import pytest
from django.test import Client

from leaderboards import daily

pytestmark = pytest.mark.django_db
YESTERDAY = daily.today() - datetime.timedelta(days=2)  # a closed date: over, and past its grace


def test_the_replay_api_publishes_only_the_engines_fields(make_player, finished_daily):
    game = finished_daily(make_player("Anna"), YESTERDAY)
    daily.on_game_finished(game)
    first = game.moves.get(seq=1)
    first.action = dict(first.action, junk="<script>" + "x" * 1000)  # stored before the edge checked
    type(first).objects.filter(pk=first.pk).update(action=first.action)
    steps = Client().get(f"/api/replay/{game.pk}", {"count": 5}).json()["steps"]
    assert (
        steps[1]["action"] == {k: v for k, v in first.action.items() if k != "junk"}
        and "junk" not in steps[1]["action"]
    )
