"""bench_server's measurement: action round trips of a real Daphne under concurrent tables, against
a bare echo. The command (benchmarks/bench_server.py) parses the options and prints;
what it measures, and how, is said there.
"""

import asyncio
import json
import marshal
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from websockets.asyncio.client import connect

from server.serve import install_uvloop
from testsupport.clients import Browser
from testsupport.daphne import free_port, server_env, wait_ready
from testsupport.procfs import cpu_seconds, process_tree
from testsupport.stats import percentile
from testsupport.ws_player import WsPlayer, simple_action

ECHO_FRAME = json.dumps({"type": "action", "action": {"type": "discard", "card": "9C"}, "v": 12, "ref": "c17"})


@dataclass
class Table:
    actions: int = 0
    last_action: float = 0.0
    failed: str = ""
    games: int = 0
    round_trips: list = field(default_factory=list)
    echoes: list = field(default_factory=list)


def measure(options: dict) -> dict:
    """Start a Daphne on a fresh (or the given) database, play the tables, stop it; the report."""
    with tempfile.TemporaryDirectory(prefix="bench-server-") as scratch:
        database = options["db"] or f"sqlite:///{Path(scratch) / 'bench.sqlite3'}"
        env = bench_env(database, options)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
        )
        port = free_port()
        runner = ["-m", "server.serve"]
        if options["cprofile"]:
            runner = [str(Path(settings.BASE_DIR) / "scripts" / "cprofile_daphne.py")]
            env["FOOT_CPROFILE_OUT"] = str(Path(options["cprofile"]).resolve())
        with open(os.environ.get("BENCH_LOG") or Path(scratch) / "daphne.log", "wb") as log:  # the server has a copy
            server = subprocess.Popen(
                [sys.executable, *runner, "-b", "127.0.0.1", "-p", str(port), "server.asgi:application"],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_ready(f"http://127.0.0.1:{port}", server, timeout=60)
            install_uvloop()  # the simulated players too: less of the shared CPU for them
            report = asyncio.run(run_bench(port, options, server.pid))
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    return report


def bench_env(database: str, options: dict) -> dict:
    """The server's environment (testsupport.daphne.server_env, production settings): the test hooks
    on (the echo socket), the bots at full speed, rate limits on with each browser counted as its
    own network, the socket rate out of the way."""
    return server_env(
        database,
        options["redis"],
        production=True,
        FOOT_BOT_WORKERS=options["bot_workers"],
        FOOT_WS_RATE=1000,
        FOOT_WS_BURST=1000,
        LOG_LEVEL="ERROR",
        # Rate limits on; one address plays every browser, so each counts as its own network.
        FOOT_LIMIT_NETWORK_FACTOR=options["tables"] * 2,
        CONN_MAX_AGE=options["conn_max_age"],
    )


def report_text(report: dict, options: dict) -> str:
    """The report as the command prints it."""
    echo, action = report["echo"], report["action"]
    lines = [
        (
            f"server: Daphne, {'PostgreSQL' if (options['db'] or '').startswith('postgres') else 'SQLite'}, "
            f"{'Redis' if options['redis'] else 'in-memory'} layer, bots {options['level']}, "
            f"{options['mode']} tables, {options['think']:g} s to think before each action"
        ),
        (
            f"echo round trip:   p50 {ms(percentile(echo, 0.5))} ms  p99 {ms(percentile(echo, 0.99))} ms  "
            f"({len(echo)} samples)"
        ),
        (
            f"action round trip: p50 {ms(percentile(action, 0.5))} ms  p99 {ms(percentile(action, 0.99))} ms  "
            f"({len(action)} samples)"
        ),
        f"ratio to echo:     p50 x{ratio(action, echo, 0.5)}  p99 x{ratio(action, echo, 0.99)}",
        f"moves per second:  {report['moves_per_second']:.0f} (all seats, {report['seconds']:.0f} s)",
        f"server CPU:        {report['cpu_ms_per_move']:.1f} ms per move (Daphne and its bot pool)",
        f"load average:      {report['load']:.1f} on {os.cpu_count()} cores at the end of the run",
        f"tables held:       {report['held']} of {report['tables']} concurrent tables",
    ]
    if report["failures"]:
        lines.append(f"failures:          {report['failures'][:3]}")
    return "\n".join(lines)


# Where the server's CPU goes: the first matching entry point of each call chain, in this order.
PROFILE_PARTS = [
    ("start-up (imports)", ("<frozen importlib", "importlib/")),
    ("move: statements and commit", ("games/rooms/game_rows.py", "django/db/transaction.py")),
    ("bots", ("games/rooms/bot_runner.py", "games/bots/")),
    ("move: engine, views and patches", ("games/rooms/", "games/engine/")),
    ("channel layer (Redis / in-memory)", ("channels_redis/", "channels/layers.py")),
    ("consumers", ("games/consumers.py", "games/inbox.py", "games/protocol.py", "games/socket_plumbing.py")),
    ("websocket and HTTP (Daphne, Twisted, autobahn)", ("daphne/", "twisted/", "autobahn/")),
    ("thread hand-offs (asgiref)", ("asgiref/",)),
    ("event loop (asyncio, selectors)", ("python3.11/asyncio/", "selectors.py")),
]


FunctionKey = tuple[str, int, str]  # (file, line, name), as pstats names a function
# function -> (calls, primitive calls, own time, cumulative time, {caller: its four figures})
ProfileStats = dict[FunctionKey, tuple[int, int, float, float, dict[FunctionKey, tuple[int, int, float, float]]]]


def load_profile(path: str) -> ProfileStats:
    """The table a cProfile dump holds (what pstats.Stats reads into its `stats`)."""
    with open(path, "rb") as dump:
        return marshal.load(dump)


def profile_shares(path: str) -> str:
    """Each part's share of the profiled CPU time, from the pstats file (own time of every
    function, given to the part of the outermost caller chain that names one)."""
    stats = load_profile(path)
    totals: dict[str, float] = {}
    for key, (_calls, _primitive, own, _cumulative, _callers) in stats.items():
        totals[part_of(key, stats)] = totals.get(part_of(key, stats), 0.0) + own
    start_up = totals.pop("start-up (imports)", 0.0)
    whole = sum(totals.values()) or 1.0
    lines = [
        (
            f"where the time goes (CPU of every thread, {whole:.1f} s profiled after {start_up:.1f} s of "
            f"start-up; the profiler's own cost is in every part):"
        )
    ]
    for part, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        lines.append(f"  {part:<50} {100 * seconds / whole:5.1f} %")
    return "\n".join(lines)


def part_of(key: FunctionKey, stats: ProfileStats, depth: int = 0, seen: set[FunctionKey] | None = None) -> str:
    """The part a function belongs to: its own file's, else that of its heaviest caller."""
    location = f"{key[0]}:{key[1]}"
    for part, markers in PROFILE_PARTS:
        if any(marker in location for marker in markers):
            return part
    callers = stats[key][4] if key in stats else {}
    seen = seen or set()
    if depth > 40 or not callers:
        return "other"
    heaviest = max(callers, key=lambda caller: callers[caller][3])
    if heaviest in seen:
        return "other"
    return part_of(heaviest, stats, depth + 1, seen | {key})


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def ratio(samples, baseline, fraction) -> str:
    if not samples or not baseline:
        return "nan"
    return f"{percentile(samples, fraction) / percentile(baseline, fraction):.1f}"


def tree_cpu_seconds(pid: int) -> float:
    """CPU time used so far by the process and its live children (the bot pool); nan once it is gone."""
    if not os.path.exists(f"/proc/{pid}"):
        return float("nan")
    return sum(map(cpu_seconds, process_tree(pid)))


async def run_bench(port: int, options: dict, server_pid: int) -> dict:
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    tables, seconds = options["tables"], options["seconds"]
    people = 2 if options["mode"] == "friends" else 1
    state = [Table() for _ in range(tables)]
    browsers = await asyncio.gather(*(asyncio.to_thread(Browser, base) for _ in range(tables * people)))
    started = time.monotonic()
    cpu_before = tree_cpu_seconds(server_pid)
    stop_at = started + seconds
    game_ids: list[list[str]] = [[] for _ in range(tables)]
    pace = Pace(stop_at, options["think"], options["level"])
    await asyncio.gather(
        *(
            play_table(base, ws, browsers[i * people : (i + 1) * people], state[i], pace, game_ids[i])
            for i in range(tables)
        )
    )
    elapsed = time.monotonic() - started
    server_cpu = tree_cpu_seconds(server_pid) - cpu_before
    moves = await asyncio.to_thread(total_versions, browsers[::people], game_ids)
    # Held: no error, no lost socket, and still acting in the last quarter of the run.
    held = sum(
        1
        for table in state
        if not table.failed and table.actions and table.last_action > stop_at - max(5.0, seconds / 4)
    )
    return {
        "echo": [rt for table in state for rt in table.echoes],
        "action": [rt for table in state for rt in table.round_trips],
        "held": held,
        "tables": tables,
        "seconds": elapsed,
        "moves_per_second": moves / elapsed,
        "failures": [table.failed for table in state if table.failed],
        "cpu_ms_per_move": server_cpu * 1000 / moves if moves else float("nan"),
        "load": os.getloadavg()[0],
    }


def total_versions(browsers, game_ids) -> int:
    total = 0
    for browser, ids in zip(browsers, game_ids, strict=True):
        for game_id in ids:
            total += browser.get(f"/api/games/{game_id}")["version"]
    return total


@dataclass
class Pace:
    stop_at: float
    think: float
    level: str


async def play_table(base, ws, browsers: list, table: Table, pace: Pace, game_ids: list) -> None:
    try:
        async with connect(f"{ws}/ws/echo/", origin=base) as echo:
            while time.monotonic() < pace.stop_at:
                game = await asyncio.to_thread(new_table, browsers, pace.level)
                game_ids.append(game["id"])
                table.games += 1
                people = [
                    WsPlayer(browser, ws, game["id"], on_gap="resync", keep_frames=False, in_place=True)
                    for browser in browsers
                ]
                try:
                    for person in people:
                        await person.open(open_timeout=30)
                    await play_game(people, echo, table, pace)
                finally:
                    for person in people:
                        await person.close()
    except Exception as failure:  # a failed table is counted, not fatal to the run
        table.failed = f"{type(failure).__name__}: {failure}"


def new_table(browsers: list, level: str) -> dict:
    """A solo game of the first browser, or a friends game it hosts and the second joins as North."""
    if len(browsers) == 1:
        return browsers[0].post("/api/games", {"mode": "solo", "level": level})
    host, friend = browsers
    game = host.post("/api/games", {"mode": "friends", "level": level})
    friend.post(f"/api/games/{game['id']}/join", {"seat": "N"})
    return host.post(f"/api/games/{game['id']}/start", {})


async def read(person: WsPlayer) -> dict:
    """One frame for one human seat; "Next deal" when a deal ended (the bots wait for it)."""
    message = await person.next_message(timeout=30)
    if message["type"] == "error":
        raise RuntimeError(f"refused: {message['code']}")
    if person.deal_ended:
        person.deal_ended = False
        await person.send({"type": "next_deal"})
    return message


async def reach(person: WsPlayer, version: int) -> None:
    while person.opened_version() < version:
        await read(person)


async def play_game(people: list[WsPlayer], echo, table: Table, pace: Pace) -> None:
    while time.monotonic() < pace.stop_at:
        if any(person.opened_view()["phase"] == "over" for person in people):
            return
        actor = next((person for person in people if person.my_turn()), None)
        if actor is None:
            newest = max(person.opened_version() for person in people)
            behind = [person for person in people if person.opened_version() < newest]
            # Catch up the sockets that are behind; when none is, the bots are playing: wait for all.
            await asyncio.gather(*(read(person) for person in behind or people))
            continue
        await asyncio.sleep(pace.think)
        await sample_echo(echo, table)
        version = actor.opened_version()
        sent = time.perf_counter()
        action = simple_action(actor.opened_view())
        await actor.send({"type": "action", "action": action, "v": version, "ref": f"c{version}"})
        await asyncio.gather(*(reach(person, version + 1) for person in people))
        # Until the last human seat had the frame (not counting this client's own patching of its view).
        table.round_trips.append(max(person.received_at for person in people) - sent)
        table.actions += 1
        table.last_action = time.monotonic()


async def sample_echo(echo, table: Table) -> None:
    sent = time.perf_counter()
    await echo.send(ECHO_FRAME)
    await echo.recv()
    table.echoes.append(time.perf_counter() - sent)
