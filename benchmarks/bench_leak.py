"""bench_leak: does a finished game leave memory behind? Minutes where the soak takes an hour.

    python -m benchmarks bench_leak [--batches 5] [--games 30] [--db postgres://...] [--redis redis://...]

One Daphne (production settings, a throwaway database as bench_load makes one) runs under
tracemalloc (testsupport.traced_serve). A person opens a game in its last deal (the page's
socket and its `state`), goes out in two actions (the game is over, R56) and closes the socket;
games are finished so in batches. After a warm-up batch and after each batch the server reports
the memory Python traces, its RSS and its live objects by type. A leak is memory and objects
that grow with every batch; a cache fills and stops (urllib's 128 parsed addresses, for one).
The report gives the traced KB per finished game after the warm-up, the object types whose
count grew, and the allocation sites that grew most.
"""

import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tests.engine.helpers import GOING_OUT_ACTIONS, last_deal_position
from testsupport.bench_load import ThrowawayDatabase
from testsupport.clients import Browser
from testsupport.daphne import DaphneServer, server_env
from testsupport.ws_player import WsPlayer

ANSWER_TIMEOUT = 900.0  # a dump under tracemalloc on a busy machine takes minutes


async def finish_games(browser: Browser, ws_base: str, count: int) -> None:
    position = last_deal_position()
    for _ in range(count):
        game = await asyncio.to_thread(browser.post, "/test/start-position", {"position": position, "level": "easy"})
        player = WsPlayer(browser, ws_base, game["id"])
        await player.open()
        for action in GOING_OUT_ACTIONS:
            answer = await player.act(action)
            if answer["type"] != "patch":
                raise CommandError(f"the going out was refused: {answer}")
        await player.close()
        if player.opened_view()["phase"] != "over":
            raise CommandError("the game did not end")


def ask_dump(folder: Path, name: str) -> dict:
    """The traced server's report (testsupport.traced_serve), asked through its request file."""
    request = folder / "request"
    request.write_text(name)
    deadline = time.monotonic() + ANSWER_TIMEOUT
    while request.exists():
        if time.monotonic() > deadline:
            raise CommandError("the traced server did not answer")
        time.sleep(0.2)
    return json.loads((folder / f"{name}.json").read_text())


def grown_types(first: dict, last: dict) -> list[tuple[str, int, int]]:
    """(type, growth, count at the end) of the object types whose count grew."""
    before, after = dict(first["types"]), dict(last["types"])
    grown = [(name, count - before.get(name, 0), count) for name, count in after.items() if count > before.get(name, 0)]
    return sorted(grown, key=lambda row: -row[1])


def report(dumps: list[dict], games: int) -> list[str]:
    warm, last = dumps[0], dumps[-1]
    finished = games * (len(dumps) - 1)
    grown_kb = last["traced_kb"] - warm["traced_kb"]
    lines = [
        "traced KB after each batch: " + " ".join(str(dump["traced_kb"]) for dump in dumps),
        "RSS KB after each batch (tracemalloc's own tables included): " + " ".join(str(d["rss_kb"]) for d in dumps),
        f"after the warm-up: {grown_kb:+d} KB traced over {finished} games: {grown_kb / finished:.2f} KB per game",
        "object types grown since the warm-up (type +growth =count): "
        + (", ".join(f"{name} +{grown} ={count}" for name, grown, count in grown_types(warm, last)[:12]) or "none"),
        "allocation sites grown most since the warm-up:",
    ]
    for site in last["grown"][:5]:
        lines.append(f"  {site['kb']:+.1f} KB {site['blocks']:+d} blocks")
        lines.extend(f"    {line}" for line in site["where"][-4:])
    return lines


class Command(BaseCommand):
    help = "Finish games in batches against a traced Daphne: what a finished game leaves in memory."

    def add_arguments(self, parser):
        parser.add_argument("--batches", type=int, default=5, help="batches measured after the warm-up batch")
        parser.add_argument("--games", type=int, default=30, help="games finished per batch")
        parser.add_argument("--db", help="a PostgreSQL URL: a throwaway database is created beside it")
        parser.add_argument("--redis", help="a Redis URL for the channel layer")

    def handle(self, *args, **options):
        folder = Path(tempfile.mkdtemp(prefix="foot-bench-leak-"))
        os.environ["FOOT_DAPHNE_MODULE"] = "testsupport.traced_serve"
        with ThrowawayDatabase(options["db"]) as database_url:
            env = server_env(
                database_url, options["redis"], production=True, FOOT_LIMIT_NETWORK_FACTOR=1000, BENCH_TRACE_DIR=folder
            )
            server = DaphneServer(env, folder / "daphne.log")
            try:
                server.start(timeout=ANSWER_TIMEOUT)
                browser = Browser(server.http)
                asyncio.run(finish_games(browser, server.ws, options["games"]))  # the warm-up
                dumps = [ask_dump(folder, "warm")]
                for batch in range(1, options["batches"] + 1):
                    asyncio.run(finish_games(browser, server.ws, options["games"]))
                    dumps.append(ask_dump(folder, f"batch{batch}"))
                    self.stdout.write(f"batch {batch}: {dumps[-1]['traced_kb']} KB traced")
            finally:
                server.stop()
        layer = "redis" if options["redis"] else "memory"
        self.stdout.write(f"bench_leak: {options['games']} games a batch, {layer} layer, logs in {folder}")
        self.stdout.write("\n".join(report(dumps, options["games"])))
