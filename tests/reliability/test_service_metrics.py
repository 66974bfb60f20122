"""GET /metrics after a real game (issue 26, item 2): two Daphne processes on PostgreSQL and Redis
share PROMETHEUS_MULTIPROC_DIR, a person plays a solo game on the first, and the second's
/metrics counts it: the moves by mode, the person's move times, the computers' thinking by level,
a refusal by its code, the open websocket (then none), and django-prometheus's counts of Django's
requests, answers and database statements. Only loopback reads it. The counting's
CPU per move is measured in the same run against the server's CPU per move (< 2 %).
"""

import asyncio
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from testsupport.clients import Browser
from testsupport.procfs import cpu_seconds
from testsupport.ws_player import WsPlayer, run

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services

TARGET_VERSION = 80
COUNTING = """
import time
from games.rooms.metrics import BOT_THINK_SECONDS, MOVE_SECONDS, MOVES
rounds = 20000
started = time.process_time()
for _ in range(rounds):
    MOVES.labels("solo").inc()
    MOVE_SECONDS.observe(0.004)
    BOT_THINK_SECONDS.labels("easy").observe(0.001)
print((time.process_time() - started) / rounds)
"""


def metrics_text(base: str, **headers: str) -> str:
    request = urllib.request.Request(base + "/metrics", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        return answer.read().decode()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample (0 when absent); labels must match exactly those given."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = "^" + re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)$"
    match = re.search(pattern, text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def counting_seconds_per_move(multiproc_dir: str) -> float:
    """A move's counts (a move by mode, a person's move time, a bot's thinking), timed in a
    process with the servers' multi-process files."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": multiproc_dir, "DJANGO_SETTINGS_MODULE": "server.settings"}
    done = subprocess.run(
        [sys.executable, "-c", COUNTING], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    return float(done.stdout.strip())


def test_metrics_count_a_real_game_over_two_processes(daphne, postgres_url, redis_url, tmp_path):
    shared = tmp_path / "prometheus"
    shared.mkdir()
    env = {**SIMPLE_BOTS, "REDIS_URL": redis_url, "PROMETHEUS_MULTIPROC_DIR": str(shared)}
    first, second = daphne(postgres_url, **env), daphne(postgres_url, **env)
    browser = Browser(first.http)
    game = browser.post("/api/games", {"mode": "solo", "level": "easy"})
    south = WsPlayer(browser, first.ws, game["id"])
    cpu_before = cpu_seconds(first.started().pid)
    during: dict[str, str] = {}

    async def scenario():
        await south.open()
        during["open"] = await asyncio.to_thread(metrics_text, second.http)
        await south.play_until(TARGET_VERSION, timeout=120)
        await south.send({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "old"})
        await south.until(lambda message: message.get("ref") == "old")
        await south.close()

    run(scenario())
    cpu_used = cpu_seconds(first.started().pid) - cpu_before
    assert sample(during["open"], "foot_websockets_open") == 1
    deadline = time.monotonic() + 10  # the server hears of the close a moment after the client
    while sample(text := metrics_text(second.http), "foot_websockets_open") != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sample(text, "foot_websockets_open") == 0
    moves = sample(text, "foot_moves_total", mode="solo")
    assert moves >= TARGET_VERSION
    people = sample(text, "foot_move_seconds_count")
    assert people >= TARGET_VERSION // 4 - 2  # South's moves: a quarter of the turns
    assert sample(text, "foot_bot_think_seconds_count", level="easy") >= moves - people
    assert sample(text, "foot_refusals_total", code="stale_version") == 1
    assert sample(text, "foot_http_answers_total", status="2xx") >= 1
    assert sample(text, "foot_http_seconds_count") >= 1
    assert "process_cpu_seconds_total" in text
    # Django's own, by django-prometheus: the game's creation, its answer, and the moves' statements.
    assert sample(text, "django_http_requests_total_by_method_total", method="POST") >= 1
    assert sample(text, "django_http_responses_total_by_status_total", status="200") >= 1
    assert sample(text, "django_http_requests_latency_including_middlewares_seconds_count") >= 1
    assert sample(text, "django_db_new_connections_total", alias="default", vendor="postgresql") >= 1
    # A person's move is a statement of its own; the computers' turns up to a person's share one.
    assert sample(text, "django_db_execute_total", alias="default", vendor="postgresql") >= people
    # Read through a proxy for an outside address: as if there were no such page.
    with pytest.raises(urllib.error.HTTPError) as outside:
        metrics_text(second.http, **{"X-Forwarded-For": "203.0.113.9"})
    assert outside.value.code == 404

    per_move_cpu = cpu_used / moves
    counting = counting_seconds_per_move(str(shared))
    print(
        f"server CPU per move {per_move_cpu * 1e3:.3f} ms; counting per move {counting * 1e6:.1f} us "
        f"({counting / per_move_cpu:.2%})"
    )
    assert counting < 0.02 * per_move_cpu
