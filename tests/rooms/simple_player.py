"""A trivial legal player for the room tests (never production): draw, then discard the first card.

FOOT_BOT_FACTORY=tests.rooms.simple_player:make_bot makes the server's bots play this way, so the
room tests do not depend on the real bots' speed or strength. The policy is the test player's own
(testsupport.ws_player.simple_action).
"""

from testsupport.ws_player import simple_action


class SimplePlayer:
    def act(self, view: dict) -> dict:
        return simple_action(view)


def make_bot(level: str, seed: int) -> SimplePlayer:
    return SimplePlayer()


class SlowPlayer(SimplePlayer):
    """Thinks like a `hard` bot on a bad day: `FOOT_TEST_THINK_SECONDS` of pure CPU, then plays simply."""

    def act(self, view: dict) -> dict:
        import os
        import time

        deadline = time.process_time() + float(os.environ.get("FOOT_TEST_THINK_SECONDS", "1.5"))
        while time.process_time() < deadline:
            pass
        return simple_action(view)


def make_slow_bot(level: str, seed: int) -> SlowPlayer:
    return SlowPlayer()
