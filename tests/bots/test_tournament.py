"""The tournament driver: complete seat-swapped games, Wilson intervals, the early stop."""

import pytest

from games.bots.tournament import MatchSummary, play_game, run_match, seat_level, wilson_interval

from .support import Game  # noqa: F401  (skips without the engine)


def test_wilson_interval_known_values():
    low, high = wilson_interval(90, 100)
    assert round(low, 3) == 0.826 and round(high, 3) == 0.945
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_early_stop_needs_a_clear_interval():
    summary = MatchSummary("a", "b", games=60, wins_a=60)
    assert summary.clear_against(0.9)
    assert not MatchSummary("a", "b", games=20, wins_a=18).clear_against(0.9)


def test_smoke_tournament_easy_beats_random():
    summary = run_match("easy", "random", 4, workers=1, first_seed=3)
    assert summary.games == 4
    assert summary.wins_a >= 3  # easy melds and goes down; random almost never does
    assert len(summary.lines()) == 3


def test_a_game_is_played_to_the_end_with_both_seat_assignments():
    result = play_game(2, "normal", "random", timed=True)
    assert result.winner in ("NS", "EW", "draw")
    assert result.decision_ms["normal"] and result.decision_ms["random"]
    assert result.level_result("normal") == 1.0


@pytest.mark.slow
def test_normal_beats_easy():
    summary = run_match("normal", "easy", 100, goal=0.9)
    print("\n".join(summary.lines()))
    assert summary.rate >= 0.75


@pytest.mark.slow
def test_easy_beats_random():
    summary = run_match("easy", "random", 40, goal=0.9)
    assert summary.rate >= 0.9


def test_summary_counts_wins_margins_and_times_from_either_seat():
    from games.bots.tournament import GameResult

    summary = MatchSummary("hard", "normal")
    summary.add(
        GameResult(
            1, {"NS": "hard", "EW": "normal"}, {"NS": 900, "EW": 500}, "NS", 10, {"hard": [1.0, 3.0], "normal": [0.5]}
        )
    )
    summary.add(
        GameResult(
            1, {"NS": "normal", "EW": "hard"}, {"NS": 700, "EW": 600}, "NS", 10, {"hard": [2.0], "normal": [0.4]}
        )
    )
    summary.add(GameResult(2, {"NS": "hard", "EW": "normal"}, {"NS": 100, "EW": 100}, "draw", 10, {}))
    assert summary.wins_a == 1.5 and summary.rate == 0.5  # R56: a draw is half a win
    assert summary.margins == [400, -100, 0]
    assert sorted(summary.decision_ms["hard"]) == [1.0, 2.0, 3.0]


def test_a_team_of_two_partners_puts_the_first_level_south_or_west():
    assert [seat_level("easy+hard", seat) for seat in "SWNE"] == ["easy", "easy", "hard", "hard"]
    assert seat_level("normal", "N") == "normal"
    with pytest.raises(ValueError, match="one level or two"):
        seat_level("easy+hard+normal", "S")


def test_a_game_with_a_mixed_team_times_each_partner_under_its_own_level():
    result = play_game(4, "random+normal", "easy", timed=True)
    assert result.levels == {"NS": "random+normal", "EW": "easy"}
    assert set(result.decision_ms) == {"random", "normal", "easy"}
    assert result.level_result("random+normal") + result.level_result("easy") == 1.0
