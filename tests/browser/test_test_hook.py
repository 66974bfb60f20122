"""The test-only route that starts a game from a prepared position exists only when the
setting FOOT_TEST_HOOKS is on: by default it answers 404 and touches nothing."""

import json

from django.test import Client


def test_position_hook_is_off_by_default(settings):
    settings.FOOT_TEST_HOOKS = False
    answer = Client().post("/test/start-position", data=json.dumps({"position": {}}), content_type="application/json")
    assert answer.status_code == 404


def test_position_hook_refuses_anything_but_post(settings):
    settings.FOOT_TEST_HOOKS = True
    assert Client().get("/test/start-position").status_code == 405
