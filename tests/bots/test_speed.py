"""The normal bot is cheap: its decision CPU time has p95 <= 5 ms on one core (issue 3). CPU
time, not wall time, so that a loaded machine does not make the test flaky."""

from games.bots.tournament import percentile, play_game

from .support import Game  # noqa: F401  (skips without the engine)


def test_normal_decisions_p95_under_five_milliseconds():
    result = play_game(7, "normal", "normal", timed=True)
    times = result.decision_ms["normal"]
    assert len(times) > 200
    assert percentile(times, 0.95) <= 5.0, percentile(times, 0.95)
