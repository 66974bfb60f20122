"""bench_engine: engine actions per second (replaying legal random games) and full random games per second."""

import time

from django.core.management.base import BaseCommand

from games.engine import Game
from games.engine.playout import play_random_game


class Command(BaseCommand):
    help = "Measure the rules engine: apply() throughput on random legal play, and whole random games per second."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=6, help="random 4-deal games to record and replay")
        parser.add_argument("--repeat", type=int, default=3, help="replays of the recorded games (best taken)")

    def handle(self, *args, games, repeat, **options):
        started = time.process_time()
        logs = [play_random_game(seed, seed)[1] for seed in range(games)]
        random_games_per_s = games / (time.process_time() - started)
        actions = sum(len(log) for log in logs)
        best = min(self._replay(logs) for _ in range(repeat))
        new_game = min(self._time_new() for _ in range(repeat))
        view_us = self._views(logs[0])
        self.stdout.write(
            f"engine apply: {actions / best:,.0f} actions/s ({actions} actions in {games} games, best of {repeat})"
        )
        self.stdout.write(
            f"random legal games (choosing moves with options/check): {random_games_per_s:.2f} games/s, "
            f"{actions / games:.0f} actions per game"
        )
        self.stdout.write(
            f"Game.new: {new_game * 1e6:.0f} us; view(seat) with options: {view_us:.0f} us "
            f"({1e6 / view_us:,.0f} views/s; mean over the four seats, the first 300 positions of game 0)"
        )

    @staticmethod
    def _replay(logs) -> float:
        started = time.process_time()
        for seed, log in enumerate(logs):
            game = Game.new(seed)
            for seat, action in log:
                game.apply(seat, action)
        return time.process_time() - started

    @staticmethod
    def _time_new() -> float:
        started = time.process_time()
        for seed in range(20):
            Game.new(seed)
        return (time.process_time() - started) / 20

    @staticmethod
    def _views(log) -> float:
        """Mean CPU time of view(seat) in us: every seat's view after each of the first 300 actions."""
        game = Game.new(0)
        count, spent = 0, 0.0
        for seat, action in log[:300]:
            game.apply(seat, action)
            started = time.process_time()
            for viewer in "SWNE":
                game.view(viewer)
            spent += time.process_time() - started
            count += 4
        return spent / count * 1e6
