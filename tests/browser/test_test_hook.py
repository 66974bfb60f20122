"""The test-only route that starts a game from a prepared position exists only when the
environment says FOOT_TEST_HOOKS=1: by default it answers 404 and touches nothing."""
import json

from django.test import Client


def test_position_hook_is_off_by_default(monkeypatch):
    monkeypatch.delenv("FOOT_TEST_HOOKS", raising=False)
    answer = Client().post("/test/start-position", data=json.dumps({"position": {}}), content_type="application/json")
    assert answer.status_code == 404


def test_position_hook_refuses_anything_but_post(monkeypatch):
    monkeypatch.setenv("FOOT_TEST_HOOKS", "1")
    assert Client().get("/test/start-position").status_code == 405
