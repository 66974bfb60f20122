"""The room service's counters for GET /metrics (server.metrics serves them): moves by mode, a
person's move from its receipt to its patches sent, the computers' thinking by level, refusals by
code, and the look backs waiting.

prometheus_client keeps each in this process's memory, or in files under PROMETHEUS_MULTIPROC_DIR
when several processes serve one site (the exposition then adds them up). A count costs a few
microseconds, against milliseconds of CPU per move (docs/SCALING.md measures it).
"""

from prometheus_client import Counter, Gauge, Histogram

# A move takes milliseconds; a slow one under load, hundreds.
MOVE_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("foot_moves", "Moves committed, by game mode (people's and computers')", ["mode"])
MOVE_SECONDS = Histogram(
    "foot_move_seconds", "A person's move: received to its patches sent to the game's sockets", buckets=MOVE_BUCKETS
)
BOT_THINK_SECONDS = Histogram(
    "foot_bot_think_seconds", "A computer player's thinking for one move, by level", ["level"], buckets=THINK_BUCKETS
)
REFUSALS = Counter("foot_refusals", "Moves and asks the room refused, by code", ["code"])
LOOKBACK_QUEUE = Gauge("foot_lookback_queue", "Look backs asked and not yet answered", multiprocess_mode="livesum")
