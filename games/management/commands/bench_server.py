"""bench_server: action round trips of a real Daphne under concurrent tables, against a bare echo.

Starts `python -m daphne server.asgi:application` on a free port (a fresh migrated SQLite file
unless --db is given; the in-memory channel layer unless --redis is given), then in the same run:
1. the baseline: as many clients as tables send an action-sized frame to /ws/echo/ and wait for
   it to come back, for a quarter of --seconds;
2. the load: --tables solo games at once, each with a simulated South that acts as soon as it is
   its turn (draw, then discard its first card) while the bots play the other seats; the round
   trip is from sending the action to receiving the patch with its ref.
Prints p50/p99 of both, their ratio, the moves per second and how many tables were held (kept
playing, without an error or a lost socket, through the whole run). Client and server share
the machine, so the figures are upper bounds of what the server alone would take.
"""
import asyncio
import http.cookiejar
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import jsonpatch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from games.daphne_process import free_port

ECHO_FRAME = json.dumps({"type": "action", "action": {"type": "discard", "card": "9C"}, "v": 12, "ref": "c17"})


def percentile(samples: list[float], fraction: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Browser:
    """A cookie-keeping HTTP client (one anonymous player)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = self.call("/api/session")["csrf"]

    def call(self, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode() if body is not None else None)
        request.add_header("Content-Type", "application/json")
        if getattr(self, "csrf", None):
            request.add_header("X-CSRFToken", self.csrf)
        with self.opener.open(request, timeout=30) as answer:
            return json.loads(answer.read())

    def cookies(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


@dataclass
class Table:
    actions: int = 0
    last_action: float = 0.0
    failed: str = ""
    games: int = 0
    round_trips: list = field(default_factory=list)


class Command(BaseCommand):
    help = ("Benchmark the game server: action round trip p50/p99 over --tables concurrent solo tables "
            "against the bare echo consumer, in one run on a real Daphne process.")

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=20, help="concurrent tables (default 20)")
        parser.add_argument("--seconds", type=float, default=20, help="length of the load phase (default 20)")
        parser.add_argument("--db", help="DATABASE_URL for the server (default: a fresh SQLite file)")
        parser.add_argument("--redis", help="REDIS_URL for the channel layer (default: in-memory)")
        parser.add_argument("--level", default="easy", help="bot level (default easy)")
        parser.add_argument("--bot-workers", type=int, default=2, help="bot pool processes (default 2)")
        parser.add_argument("--conn-max-age", type=int, default=60,
                            help="CONN_MAX_AGE of the server (default 60, as docs/DEPLOY.md advises)")

    def handle(self, *args, **options):
        with tempfile.TemporaryDirectory(prefix="bench-server-") as scratch:
            database = options["db"] or f"sqlite:///{Path(scratch) / 'bench.sqlite3'}"
            env = self.server_env(database, options)
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                           cwd=settings.BASE_DIR, env=env, check=True)
            port = free_port()
            log = open(Path(scratch) / "daphne.log", "wb")
            server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                       "server.asgi:application"], cwd=settings.BASE_DIR, env=env,
                                      stdout=log, stderr=subprocess.STDOUT)
            try:
                wait_ready(f"http://127.0.0.1:{port}", server)
                report = asyncio.run(run_bench(port, options["tables"], options["seconds"], options["level"],
                                               server.pid))
            finally:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
        self.print_report(report, options)

    @staticmethod
    def server_env(database: str, options) -> dict:
        env = dict(os.environ, DATABASE_URL=database, DEBUG="0", SECRET_KEY="bench-only-" + "x" * 50,
                   FOOT_BOT_DELAY="0", FOOT_BOT_WORKERS=str(options["bot_workers"]),
                   FOOT_WS_RATE="1000", FOOT_WS_BURST="1000", LOG_LEVEL="ERROR", SECURE_COOKIES="0",
                   DJANGO_SETTINGS_MODULE="server.settings", CONN_MAX_AGE=str(options["conn_max_age"]))
        env.pop("REDIS_URL", None)
        if options["redis"]:
            env["REDIS_URL"] = options["redis"]
        return env

    def print_report(self, report: dict, options) -> None:
        echo, action = report["echo"], report["action"]
        lines = [
            f"server: Daphne, {'PostgreSQL' if (options['db'] or '').startswith('postgres') else 'SQLite'}, "
            f"{'Redis' if options['redis'] else 'in-memory'} layer, bots {options['level']}",
            f"echo round trip:   p50 {ms(percentile(echo, .5))} ms  p99 {ms(percentile(echo, .99))} ms  "
            f"({len(echo)} samples)",
            f"action round trip: p50 {ms(percentile(action, .5))} ms  p99 {ms(percentile(action, .99))} ms  "
            f"({len(action)} samples)",
            f"ratio to echo:     p50 x{ratio(action, echo, .5)}  p99 x{ratio(action, echo, .99)}",
            f"moves per second:  {report['moves_per_second']:.0f} (all seats, {report['seconds']:.0f} s)",
            f"server CPU:        {report['cpu_ms_per_move']:.1f} ms per move (Daphne and its bot pool)",
            f"load average:      {report['load']:.1f} on {os.cpu_count()} cores at the end of the run",
            f"tables held:       {report['held']} of {report['tables']} concurrent tables",
        ]
        if report["failures"]:
            lines.append(f"failures:          {report['failures'][:3]}")
        self.stdout.write("\n".join(lines))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def ratio(samples, baseline, fraction) -> str:
    if not samples or not baseline:
        return "nan"
    return f"{percentile(samples, fraction) / percentile(baseline, fraction):.1f}"


def wait_ready(base: str, server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CommandError(f"daphne exited with {server.returncode}")
        try:
            with urllib.request.urlopen(base + "/api/session", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise CommandError("daphne did not start")


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by the process and its live children (the bot pool), from /proc."""
    total, ticks = 0.0, os.sysconf("SC_CLK_TCK")
    pids = [pid]
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        return float("nan")
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return total


async def run_bench(port: int, tables: int, seconds: float, level: str, server_pid: int) -> dict:
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    echo = await echo_phase(ws, base, clients=tables, seconds=max(2.0, seconds / 4))
    state = [Table() for _ in range(tables)]
    browsers = await asyncio.gather(*(asyncio.to_thread(Browser, base) for _ in range(tables)))
    started = time.monotonic()
    cpu_before = cpu_seconds(server_pid)
    stop_at = started + seconds
    game_ids: list[list[str]] = [[] for _ in range(tables)]
    await asyncio.gather(*(play_table(base, ws, browsers[i], state[i], stop_at, level, game_ids[i])
                           for i in range(tables)))
    elapsed = time.monotonic() - started
    server_cpu = cpu_seconds(server_pid) - cpu_before
    moves = await asyncio.to_thread(total_versions, browsers, game_ids)
    # Held: no error, no lost socket, and still acting in the last quarter of the run.
    held = sum(1 for table in state
               if not table.failed and table.actions and table.last_action > stop_at - max(5.0, seconds / 4))
    return {"echo": echo, "action": [rt for table in state for rt in table.round_trips], "held": held,
            "tables": tables, "seconds": elapsed, "moves_per_second": moves / elapsed,
            "failures": [table.failed for table in state if table.failed],
            "cpu_ms_per_move": server_cpu * 1000 / moves if moves else float("nan"),
            "load": os.getloadavg()[0]}


def total_versions(browsers, game_ids) -> int:
    total = 0
    for browser, ids in zip(browsers, game_ids):
        for game_id in ids:
            total += browser.call(f"/api/games/{game_id}")["version"]
    return total


async def echo_phase(ws: str, base: str, clients: int, seconds: float) -> list[float]:
    from websockets.asyncio.client import connect

    samples: list[float] = []
    stop_at = time.monotonic() + seconds

    async def client():
        async with connect(f"{ws}/ws/echo/", origin=base) as socket_:
            while time.monotonic() < stop_at:
                sent = time.perf_counter()
                await socket_.send(ECHO_FRAME)
                await socket_.recv()
                samples.append(time.perf_counter() - sent)

    await asyncio.gather(*(client() for _ in range(clients)))
    return samples


async def play_table(base, ws, browser: Browser, table: Table, stop_at: float, level: str, game_ids: list) -> None:
    from websockets.asyncio.client import connect

    try:
        while time.monotonic() < stop_at:
            game = await asyncio.to_thread(browser.call, "/api/games", {"mode": "solo", "level": level})
            game_ids.append(game["id"])
            table.games += 1
            async with connect(f"{ws}{game['ws']}", additional_headers={"Cookie": browser.cookies()},
                               origin=base, max_size=None) as socket_:
                await play_game(socket_, table, stop_at)
    except Exception as failure:  # a failed table is counted, not fatal to the run
        table.failed = f"{type(failure).__name__}: {failure}"


async def play_game(socket_, table: Table, stop_at: float) -> None:
    view, version, seat, pending, sent = None, None, None, None, 0.0
    while time.monotonic() < stop_at:
        message = json.loads(await asyncio.wait_for(socket_.recv(), 30))
        kind = message["type"]
        if kind == "state":
            view, version, seat = message["view"], message["v"], message["seat"]
            pending = None
        elif kind == "patch":
            view = jsonpatch.apply_patch(view, message["ops"])
            version = message["v"]
            if pending is not None and message.get("ref") == pending:
                table.round_trips.append(time.perf_counter() - sent)
                table.actions += 1
                table.last_action = time.monotonic()
                pending = None
            if any(event["type"] == "deal_end" for event in message["events"]):
                await socket_.send(json.dumps({"type": "next_deal"}))
        elif kind == "error":
            raise RuntimeError(f"refused: {message['code']}")
        if view is None:
            continue
        if view["phase"] == "over":
            return
        if pending is None and view["turn"] == seat:
            options = view["options"]
            action = {"type": "draw"} if options["draw"] else {"type": "discard", "card": sorted(view["hand"])[0]}
            pending = f"c{version}"
            sent = time.perf_counter()
            await socket_.send(json.dumps({"type": "action", "action": action, "v": version, "ref": pending}))

