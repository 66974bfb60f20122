"""The offline check of the hard search (testsupport.search_truth, bench_search): the search
takes another override bar, the truth is reproducible and judges the candidates the search
would weigh, and a setting's choice is one of them."""

import random

from games.bots import hard
from testsupport import search_truth

from .support import Game


def test_the_override_bar_is_a_setting_of_the_bot(monkeypatch):
    def king_gains_30(game, seat, action, depth):
        return 30.0 if action["card"] == "KD" else 0.0

    monkeypatch.setattr(hard, "rollout", king_gains_30)
    view = Game.new(seed=5).view("S")
    candidates = [{"type": "discard", "card": c} for c in ("AC", "KD")]
    assert hard.HardBot(seed=1).search(view, candidates, 12, random.Random(1)) == 0  # under the live +50
    assert hard.HardBot(seed=1, margin=0.0).search(view, candidates, 12, random.Random(1)) == 1


def test_the_truth_plays_every_candidate_in_the_same_worlds_and_comes_out_the_same_again():
    sampled = search_truth.sample_decisions(range(300, 301), every=40)
    assert sampled, "one game has searched decisions"
    view, candidates, going_out = sampled[0]
    assert len(candidates) >= 2 and search_truth.search_decision(view) == (view, candidates, going_out)
    first = search_truth.truth((view, candidates, going_out, 2))
    again = search_truth.truth((view, candidates, going_out, 2))
    assert [len(scores) for scores in first.truth] == [2] * len(candidates)
    assert first.truth == again.truth
    assert first.gain(0) == 0.0
    index = search_truth.choice((first, search_truth.Setting(iterations=2 * len(candidates)), 1))
    assert 0 <= index < len(candidates)
