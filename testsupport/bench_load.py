"""bench_load's measurement: many concurrent solo games through a real Daphne, at human pace. The
command (benchmarks/bench_load.py) parses the options, runs `run_once` for each
table count and prints `report_text`; what it measures, and how, is said there.
"""

import asyncio
import contextlib
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import psycopg
from django.conf import settings
from django.core.management.base import CommandError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from games.bots import make_bot
from games.engine import Game as EngineGame
from testsupport.bench_roll import SETTLE, RollingRestart, lost_moves, roll_figures, roll_text
from testsupport.clients import Browser
from testsupport.cluster import Cluster
from testsupport.daphne import DaphneServer, server_env
from testsupport.flame import flame_svg
from testsupport.procfs import cpu_seconds, open_descriptors, process_tree, rss_bytes
from testsupport.stats import percentile
from testsupport.ws_player import WsPlayer

ANSWER_TIMEOUT = 15.0  # an action not answered by then counts as an error
LOOK_BACK_TIMEOUT = 120.0  # a look back (a whole deal's search, queued behind others) not answered by then: an error
CLOSE_SERVICE_RESTART = 1012  # a Daphne's graceful restart (server.front): the table reconnects, as the page does
RECONNECT_OPEN_TIMEOUT = 10.0  # the echo socket's reconnect (the game socket's waits, as a browser does)
RECONNECT_GIVE_UP = 60.0  # a table that cannot reconnect for this long stops playing (an error)


# ---------------------------------------------------------------- the server under test


class ThrowawayDatabase:
    """A PostgreSQL database foot_bench_<hex> beside `base_url`, or a temporary SQLite file."""

    def __init__(self, base_url: str | None):
        self.base_url = base_url
        self.name: str | None = None
        self.tmp: str | None = None

    def __enter__(self) -> str:
        if self.base_url:
            name = self.name = f"foot_bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(self._admin_url(), autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            url = self.base_url.rsplit("/", 1)[0] + "/" + name
        else:
            self.tmp = tempfile.mkdtemp(prefix="foot-bench-")
            url = f"sqlite:///{self.tmp}/bench.sqlite3"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=server_env(url, production=True),
            check=True,
            timeout=300,
        )
        return url

    def _admin_url(self) -> str:
        assert self.base_url, "only a PostgreSQL database has an admin URL"
        return self.base_url.replace("postgres://", "postgresql://", 1)

    def __exit__(self, *exc):
        if self.name:
            with psycopg.connect(self._admin_url(), autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


SERVICES = ("postgres", "redis-server")  # the shared services, whose CPU a move also costs


def service_cpu_seconds() -> dict[str, dict[int, float]]:
    """CPU used so far by each PostgreSQL and Redis process of the machine, by pid."""
    totals: dict[str, dict[int, float]] = {name: {} for name in SERVICES}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if name in totals:
            # PostgreSQL's postmaster reaps the backends, so a connection closed during the run
            # (CONN_MAX_AGE) still counts through its parent's cutime/cstime.
            totals[name][int(pid)] = cpu_seconds(int(pid), reaped_children=True)
    return totals


def service_cpu_used(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds each service used between two samples: what every process alive at the end
    used since the start (or since it began), its ended children included (a database connection
    closed during the run is counted by the postmaster that reaped it)."""
    return {name: sum(cpu - before[name].get(pid, 0.0) for pid, cpu in after[name].items()) for name in SERVICES}


@dataclass
class Sample:
    at: float
    daphne_rss: int
    tree_rss: int
    tree_cpu: float
    services_cpu: dict = field(default_factory=dict)  # PostgreSQL and Redis, in of_all only

    @classmethod
    def of(cls, pid: int) -> "Sample":
        tree = process_tree(pid)
        return cls(time.monotonic(), rss_bytes(pid), sum(map(rss_bytes, tree)), sum(map(cpu_seconds, tree)))

    @classmethod
    def of_all(cls, servers: list) -> "Sample":
        """The sum over every Daphne process of the run (and their bot pools)."""
        each = [cls.of(server.process.pid) for server in servers]
        return cls(
            time.monotonic(),
            sum(s.daphne_rss for s in each),
            sum(s.tree_rss for s in each),
            sum(s.tree_cpu for s in each),
            service_cpu_seconds(),
        )


# ---------------------------------------------------------------- the players


@dataclass
class Tally:
    actions: list = field(default_factory=list)  # action round trips, seconds
    action_at: list = field(default_factory=list)  # when each of them was sent (monotonic)
    echoes: list = field(default_factory=list)
    errors: dict = field(default_factory=dict)  # kind -> count (server errors, timeouts, closed sockets)
    refused: int = 0  # rule refusals of the simple policy's optional meld (expected, not errors)
    turns: int = 0
    finished: int = 0
    deals_ended: int = 0  # deal ends the tables saw (games over included)
    gaps: int = 0  # version gaps healed by a sync
    moves: int = 0  # versions seen by the tables (every move of every seat), for the CPU per move
    look_backs: list = field(default_factory=list)  # --look-back: seconds from asking to the answer
    look_back_items: int = 0
    look_backs_busy: int = 0  # refused with look_back_busy (the server's bound), not errors
    look_backs_later: int = 0  # look_back_later: not done in FOOT_LOOKBACK_WAIT (the search waits for idle CPU)
    look_backs_unanswered: int = 0  # still being worked out when the run ended
    # --front nginx: the moves to check against the database, and the reconnects after a restart
    acknowledged: list = field(default_factory=list)  # (game id, version, seat, action): a patch with our ref came
    restart_closes: int = 0  # game sockets closed with 1012 (a process restarting): not errors
    other_closes: int = 0  # game sockets closed otherwise (errors too)
    reconnects: list = field(default_factory=list)  # (when closed, monotonic; seconds from the close to the state)
    reconnect_failures: dict = field(default_factory=dict)  # kind -> attempts that failed (then tried again)
    reconnecting: int = 0  # tables between a close and the state after it, now
    worst_reconnect: dict = field(default_factory=dict)  # table number -> its slowest reconnect
    behind: int = 0  # reconnects whose state was older than the table's last acknowledged move
    cut: int = 0  # actions whose socket closed before their answer: not acknowledged, and not errors

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def draw_if_due(view: dict) -> dict | None:
    """The draw that opens the human turn (draw, at most one meld addition, then a discard)."""
    options = view["options"]
    if options.get("draw"):
        return {"type": "draw"}
    return None


def meld_addition(view: dict) -> dict | None:
    hand_size = sum(view["hand"].values())
    if hand_size <= 3:
        return None  # keep cards to discard (R47): the bench is not about going out
    for rank, cards in sorted((view["options"].get("add_to") or {}).items()):
        for card in cards:
            if card != "JK" and not card.startswith("2"):
                return {"type": "meld", "groups": [{"cards": [card], "to": rank}]}
    return None


def discards(view: dict) -> list[str]:
    """Cards to try discarding, the least useful first (threes and low naturals; never wild cards first)."""
    order = "3456789TJQKA2"
    hand = [card for card in view["hand"] if view["hand"][card] > 0]
    return sorted(hand, key=lambda c: (c == "JK", order.index(c[0]) if c != "JK" else 99))


def spread_start(seed: int, fraction: float) -> dict:
    """A /test/start-position body for a game `fraction` of the way into its first deal: the deal's
    start and its moves up to the first turn of South's from there, played by easy bots (the
    engine alone, in this process). The server stores them as the game's log, so a look back at
    that deal judges all of South's moves, as it would a deal played here from its start."""
    game = EngineGame.new(seed)
    start, bots = game.to_position(), {seat: make_bot("easy", seed + n) for n, seat in enumerate("SWNE")}
    moves: list[tuple[str, dict]] = []
    while game.deal == 1 and game.turn is not None:
        seat = game.turn
        action = bots[seat].act(game.view(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    target = int(len(moves) * fraction)
    # South's turn begins with a draw: stop before the first one at or after the target.
    cut = next((n for n in range(target, len(moves)) if moves[n][0] == "S" and moves[n][1]["type"] == "draw"), 0)
    return {"position": start, "moves": [list(move) for move in moves[:cut]]}


class Front(Protocol):
    """Where a table connects: one Daphne (DaphneServer) or nginx in front of several (Cluster)."""

    @property
    def http(self) -> str: ...

    @property
    def ws(self) -> str: ...


@dataclass
class Deadline:
    """When the tables stop: moved by a rolling restart, which the tables play through."""

    at: float


def any_frame(message: dict) -> bool:
    return True


def close_code(closed: ConnectionClosed) -> int | None:
    return closed.rcvd.code if closed.rcvd else None


class Table:
    """One player: a solo game's socket (testsupport.ws_player.WsPlayer) and an echo socket,
    playing a turn every `pace` seconds; after a close it connects again as the page does.
    `record`: keep every acknowledged move for the check against the database (--front nginx)."""

    def __init__(
        self,
        number: int,
        server: Front,
        level: str,
        pace: float,
        tally: Tally,
        look_back: bool = False,
        start: dict | None = None,
        record: bool = False,
    ):
        self.number, self.server, self.level, self.pace, self.tally = number, server, level, pace, tally
        self.record = record
        self.last_ack = 0  # the version of this table's last acknowledged move in its game
        self.look_back = look_back  # ask for the look back at every deal's end, as a curious player would
        self.start = start  # --spread: where the first game begins (spread_start); later games are new
        self.asked: dict[str, float] = {}  # look back ref -> when it was asked (perf_counter)
        self.session: Browser | None = None
        self.player: WsPlayer | None = None
        self.echo: ClientConnection | None = None
        self.measuring = False

    @property
    def view(self):
        return self.player.view if self.player else None

    async def open(self) -> None:
        if self.session is None:
            self.session = await asyncio.to_thread(Browser, self.server.http)
        session = self.session
        if self.start is not None:
            body, self.start = {**self.start, "level": self.level}, None
            game_id = (await asyncio.to_thread(session.post, "/test/start-position", body))["id"]
        else:
            game_id = await asyncio.to_thread(session.new_solo, self.level)
        # A gap is resynced and counted; in place, no frames kept, no pings of its own: the load
        # generator shares the machine with the servers, and counts in a move's cost.
        player = self.player = WsPlayer(
            session,
            self.server.ws,
            game_id,
            on_gap="resync",
            keep_frames=False,
            in_place=True,
            ref_prefix=f"t{self.number}.",
            keepalive=False,
        )
        self.last_ack = 0
        if self.echo is None:
            self.echo = await self.connect_echo(60)
        await player.open(open_timeout=60)

    async def connect_echo(self, timeout: float) -> ClientConnection:
        # No pings of its own, as a browser (the server's are answered).
        return await connect(
            f"{self.server.ws}/ws/echo/", origin=Origin(self.server.http), open_timeout=timeout, ping_interval=None
        )

    async def reconnect(self, closed_at: float) -> bool:
        """As static/foot/net.js after its socket closed: the first try after 0.1-0.5 s, then 0.5 s,
        doubling to 10 s, each waiting for its handshake and first state as long as a browser
        would; the state it gets is where the table resumes. The seconds from the close
        (`closed_at`, perf_counter) to that state are counted; False when it gave up."""
        player = self.opened()
        delay, backoff = 0.1 + random.random() * 0.4, 0.5
        closed_when = time.monotonic() - (time.perf_counter() - closed_at)
        while True:
            await asyncio.sleep(delay)
            left = RECONNECT_GIVE_UP - (time.perf_counter() - closed_at)
            try:
                state = await asyncio.wait_for(player.open(open_timeout=max(left, 0.1)), max(left, 0.1))
                break
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as failure:
                with contextlib.suppress(Exception):  # an attempt that opened but had no state
                    await player.close()
                kind = f"closed:{close_code(failure)}" if isinstance(failure, ConnectionClosed) else str(failure)[:60]
                self.tally.reconnect_failures[kind] = self.tally.reconnect_failures.get(kind, 0) + 1
                if time.perf_counter() - closed_at > RECONNECT_GIVE_UP:
                    self.tally.error("reconnect:gave_up")
                    return False
                delay, backoff = backoff, min(backoff * 2, 10.0)
        took = player.received_at - closed_at
        self.tally.reconnects.append((closed_when, took))
        self.tally.worst_reconnect[self.number] = max(self.tally.worst_reconnect.get(self.number, 0.0), took)
        if player.opened_version() < self.last_ack:
            self.tally.behind += 1
        await self.answer_awaiting(state)
        return True

    async def answer_awaiting(self, state: dict) -> None:
        """A state that says the bots wait for this seat's next_deal (its deal_end patch came before a
        close, the next_deal went to a process already draining): send it, as the page's button does."""
        player = self.opened()
        if player.seat in state.get("awaiting", []) and not player.deal_ended:
            await player.send({"type": "next_deal"})

    async def close(self) -> None:
        for sock in (self.player, self.echo):
            if sock is not None:
                with contextlib.suppress(Exception):  # closing what the server may have dropped
                    await sock.close()

    def opened(self) -> WsPlayer:
        """The table's websocket player, once `open()` made it."""
        if self.player is None:
            raise RuntimeError("the table was never opened")
        return self.player

    def count(self, player: WsPlayer, applied: int, gaps: int) -> None:
        """The moves (patches applied, while measuring) and the gaps since `player` had `applied`
        and `gaps`. A plain call, not a context manager: the generator reads every frame through it."""
        if self.measuring:
            self.tally.moves += player.applied - applied
        self.tally.gaps += player.gaps - gaps

    async def until(self, wanted: Callable[[dict], bool], timeout: float = ANSWER_TIMEOUT) -> dict:
        player = self.opened()
        applied, gaps = player.applied, player.gaps
        try:
            return await player.until(wanted, timeout)
        finally:
            self.count(player, applied, gaps)

    def my_turn(self) -> bool:
        return self.player is not None and self.player.my_turn()

    async def act(self, action: dict) -> dict:
        started, sent_at = time.perf_counter(), time.monotonic()
        player = self.opened()
        applied, gaps = player.applied, player.gaps
        try:
            answer = await player.act(action, timeout=ANSWER_TIMEOUT)
        except ConnectionClosed:
            self.tally.cut += 1
            raise
        finally:
            self.count(player, applied, gaps)
        if self.measuring:
            self.tally.actions.append(player.frame_at - started)  # before this client parsed it
            self.tally.action_at.append(sent_at)
        if answer["type"] == "patch":
            self.last_ack = answer["v"]
            if self.record:
                self.tally.acknowledged.append((player.game_id, answer["v"], player.seat, action))
        return answer

    async def ping_echo(self) -> None:
        payload = json.dumps({"type": "ping", "table": self.number, "at": time.perf_counter()})
        if self.echo is None:  # its process restarted: connect again, and measure the floor next turn
            with contextlib.suppress(OSError, InvalidHandshake, TimeoutError):
                self.echo = await self.connect_echo(RECONNECT_OPEN_TIMEOUT)
            return
        started = time.perf_counter()
        try:
            await self.echo.send(payload)
            await asyncio.wait_for(self.echo.recv(), ANSWER_TIMEOUT)
        except ConnectionClosed as closed:
            if close_code(closed) != CLOSE_SERVICE_RESTART:
                raise
            self.echo = None
            return
        if self.measuring:
            self.tally.echoes.append(time.perf_counter() - started)

    async def turn(self) -> None:
        await self.ping_echo()
        draw = draw_if_due(self.view)
        if draw:
            answer = await self.act(draw)
            if answer["type"] == "error":
                self.tally.error(f"draw:{answer['code']}")
                await self.resync()
                return
        if not self.my_turn() or self.view["phase"] != "play":
            return  # the draw ended the deal (empty stock)
        addition = meld_addition(self.view)
        if addition:
            answer = await self.act(addition)
            if answer["type"] == "error":
                self.tally.refused += 1
        for card in discards(self.view):
            answer = await self.act({"type": "discard", "card": card})
            if answer["type"] == "patch":
                break
            if answer["code"] not in ("must_keep_cards", "cannot_go_out", "card_not_held"):
                self.tally.error(f"discard:{answer['code']}")
                break
            self.tally.refused += 1
        self.tally.turns += 1

    async def ask_look_back(self) -> None:
        """Press Look back at the end of the deal that just ended. The table does not wait for the
        answer (a player may press Next deal at once): the bots go on while the search runs, and
        the answer is collected when it comes (`collect_look_backs`)."""
        player = self.opened()
        ref = f"t{self.number}.lb{uuid.uuid4().hex[:8]}"
        player.awaited.add(ref)
        self.asked[ref] = time.perf_counter()
        await player.send({"type": "look_back", "deal": player.ended_deal, "ref": ref})

    async def await_look_backs(self) -> None:
        player = self.opened()
        if player.awaited:
            with contextlib.suppress(TimeoutError):
                await self.until(lambda m: not player.awaited, timeout=LOOK_BACK_TIMEOUT)
        self.collect_look_backs()

    def collect_look_backs(self, final: bool = False) -> None:
        """The answers that came meanwhile; one not answered in LOOK_BACK_TIMEOUT is an error (at
        the end of the run, one still within it is left uncounted)."""
        player = self.opened()
        for ref, (answer, received_at) in list(player.replies.items()):
            asked = self.asked.pop(ref, received_at)
            del player.replies[ref]
            if answer["type"] == "look_back":
                self.tally.look_backs.append(received_at - asked)
                self.tally.look_back_items += len(answer["items"])
            elif answer.get("code") == "look_back_busy":
                self.tally.look_backs_busy += 1
            elif answer.get("code") == "look_back_later":
                self.tally.look_backs_later += 1
            else:
                self.tally.error(f"look_back:{answer.get('code')}")
        now = time.perf_counter()
        for ref, asked in list(self.asked.items()):
            if now - asked > LOOK_BACK_TIMEOUT:
                self.tally.error("look_back:timeout")
                del self.asked[ref]
                player.awaited.discard(ref)
        if final:
            self.tally.look_backs_unanswered += len(self.asked)

    async def resync(self) -> None:
        await self.opened().send({"type": "sync"})
        await self.answer_awaiting(await self.until(lambda m: m["type"] == "state"))

    async def play(self, start_at: float, end: Deadline) -> None:
        """Play until `end.at` (monotonic), one human turn at most every `pace` seconds."""
        next_turn = start_at
        while time.monotonic() < end.at:
            try:
                if self.view is not None and self.view["phase"] == "over" and self.view.get("winner"):
                    self.tally.finished += 1
                    self.tally.deals_ended += 1
                    if self.look_back and self.opened().deal_ended:
                        self.opened().deal_ended = False
                        await self.ask_look_back()
                        await self.await_look_backs()  # before this game's socket closes
                    await self.opened().close()
                    await self.open()  # a new game for the same player
                    continue
                player = self.opened()
                if self.asked or player.replies:
                    self.collect_look_backs()
                if player.deal_ended:  # the bots wait for this seat's next_deal
                    player.deal_ended = False
                    self.tally.deals_ended += 1
                    if self.look_back:
                        await self.ask_look_back()
                    await player.send({"type": "next_deal"})
                now = time.monotonic()
                if self.my_turn() and now >= next_turn:
                    next_turn = now + self.pace
                    await self.turn()
                    continue
                wait = min(end.at - now, max(0.05, next_turn - now) if self.my_turn() else 5.0)
                try:
                    await self.until(any_frame, timeout=max(wait, 0.01))
                except TimeoutError:
                    if not self.my_turn() and time.monotonic() - now > 4.0:
                        await self.resync()  # nothing for a while and not our turn: check where we are
            except TimeoutError:
                self.tally.error("timeout")
                await self.recover()
            except ConnectionClosed as closed:
                closed_at, code = time.perf_counter(), close_code(closed)
                if code == CLOSE_SERVICE_RESTART:
                    self.tally.restart_closes += 1  # a graceful restart: expected, not an error
                else:
                    self.tally.other_closes += 1
                    self.tally.error(f"closed:{code}")
                self.tally.reconnecting += 1
                try:
                    back = await self.reconnect(closed_at)
                finally:
                    self.tally.reconnecting -= 1
                if not back:
                    return
            except OSError as failure:
                self.tally.error(f"closed:{type(failure).__name__}")
                await self.recover()

    async def recover(self) -> None:
        try:
            await self.resync()
        except Exception:
            await asyncio.sleep(1)


# ---------------------------------------------------------------- one run


async def drive(
    servers: list,
    tables: int,
    seconds: float,
    pace: float,
    level: str,
    soak_samples: list | None,
    look_back: bool = False,
    spread: bool = False,
    front: Front | None = None,
    roll: RollingRestart | None = None,
    window_opens: Callable[[], None] = lambda: None,
    window_closes: Callable[[], None] = lambda: None,
):
    """Play the tables for `seconds` (through `front` when given, else spread over `servers`),
    `roll` restarting the processes meanwhile; (tally, samples before and after, client CPU).
    `window_opens` and `window_closes` are called as the measured window opens (every table open)
    and closes (before the tables close their sockets): the profile covers the window alone."""
    tally = Tally()
    # --spread: table n starts n/tables of the way into a deal, as on a site whose players came at
    # different times; deals then end at the steady rate from the first minute.
    starts = [spread_start(20_261_203 + n, n / tables) if spread else None for n in range(tables)]
    # Without a front, tables are spread over the servers in turn, as a load balancer would place
    # new sessions; with one, nginx places them.
    players = [
        Table(n, front or servers[n % len(servers)], level, pace, tally, look_back, starts[n], record=bool(front))
        for n in range(tables)
    ]
    opening = asyncio.Semaphore(8)

    async def open_one(player):
        async with opening:
            for attempt in range(3):
                try:
                    return await player.open()
                except Exception as failure:  # counted, then tried again: a table that cannot open is an error
                    tally.error(f"open:{type(failure).__name__}")
                    await asyncio.sleep(1 + attempt)
            raise CommandError("a table could not open its game three times")

    await asyncio.gather(*(open_one(p) for p in players))
    await asyncio.sleep(1)
    before = Sample.of_all(servers)
    window_opens()
    began = time.monotonic()
    end_at = began + seconds
    # A roll is played through to its end and SETTLE seconds after, however long it takes.
    deadline = Deadline(math.inf if roll else end_at)
    # Tables start spread over one turn's time, as people arrive at different moments.
    tasks = [asyncio.create_task(p.play(began + pace * n / tables, deadline)) for n, p in enumerate(players)]

    async def roll_and_settle():
        if roll is None:
            return
        roll.tables_back = lambda: tally.reconnecting == 0
        try:
            await roll.run(began)
        finally:
            deadline.at = max(end_at, time.monotonic() + SETTLE)

    async def measure_after_warmup():
        await asyncio.sleep(min(pace, seconds / 4))
        for p in players:
            p.measuring = True

    async def sample_memory():
        while soak_samples is not None and time.monotonic() < end_at:
            descriptors = sum(open_descriptors(server.process.pid) for server in servers)
            sample = (time.monotonic() - began, Sample.of_all(servers).daphne_rss, descriptors, tally.finished)
            soak_samples.append(sample)
            await asyncio.sleep(max(5.0, seconds / 40))

    rolling = asyncio.create_task(roll_and_settle())
    extra = [asyncio.create_task(measure_after_warmup()), asyncio.create_task(sample_memory())]
    client_cpu = time.process_time()
    await asyncio.gather(*tasks)
    await rolling  # done by now (the tables stop after it); raises what made it fail
    for p in players:
        if p.player is not None:
            p.collect_look_backs(final=True)
    after = Sample.of_all(servers)
    window_closes()
    client_cpu = time.process_time() - client_cpu
    for task in extra:
        task.cancel()
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    return tally, before, after, client_cpu


def run_once(
    tables: int,
    seconds: float,
    pace: float,
    level: str,
    db: str | None,
    redis: str | None,
    workdir: Path,
    soak: bool,
    extra_env: dict,
    profile: str | None = None,
    nice: int = 0,
    server_count: int = 1,
    network_factor: float | None = None,
    look_back: bool = False,
    spread: bool = False,
    *,
    front: str = "direct",
    roll: bool = False,
    database_url: str | None = None,
) -> dict:
    """One run. `front`: "direct" (each Daphne's own port) or "nginx" (testsupport/cluster.py's
    nginx in front of them; PostgreSQL and Redis needed); `roll`: restart every Daphne, one at a
    time, a third of the way into the window (nginx only); `database_url`: a migrated PostgreSQL
    database to use as it is, in place of a throwaway one beside `db`."""
    if roll and front != "nginx":
        raise CommandError("--roll restarts the Daphnes behind nginx: add --front nginx")
    if front == "nginx" and not (redis and (db or database_url)):
        raise CommandError("--front nginx runs the production shape: give --db (PostgreSQL) and --redis")
    # One address plays every table: the per-network limits scaled as if each table had its own.
    factor = network_factor if network_factor is not None else max(1, tables)
    site_defaults = {"FOOT_LOOKBACK_BUSY": settings.FOOT_LOOKBACK_BUSY}  # as deployed, not as the tests run
    server_extra = {"FOOT_LIMIT_NETWORK_FACTOR": factor, **site_defaults, **extra_env}
    lost: list = []
    with contextlib.ExitStack() as stack:
        database_url = database_url or stack.enter_context(ThrowawayDatabase(db))
        cluster: Cluster | None = None
        if front == "nginx":
            assert redis is not None, "checked above"
            cluster = Cluster(
                server_count, database_url, redis, workdir / f"cluster-{tables}", nice=nice, **server_extra
            )
            servers, env = cluster.daphnes, cluster.env
        else:
            env = server_env(database_url, redis, production=True, **server_extra)
            servers = [DaphneServer(env, workdir / f"daphne-{tables}-{number}.log") for number in range(server_count)]
        start_servers(servers, cluster, nice)
        rolling = RollingRestart(cluster, seconds / 3) if roll and cluster else None
        idle = Sample.of_all(servers)
        samples: list[tuple[float, int, int, int]] | None = [] if soak else None
        spies: list[subprocess.Popen] = []

        # The measured window only: the tables opening their games and closing their sockets at the
        # end (every socket's leaving read the game's presence) are not a move's hot path.
        def start_spy() -> None:
            if profile:
                spies.append(start_profile(servers[0].started().pid, 2 * seconds + 60, profile))  # stopped sooner

        def stop_spy() -> None:
            for spy in spies:
                spy.send_signal(signal.SIGINT)  # py-spy writes what it has sampled, and exits

        try:
            tally, before, after, client_cpu = asyncio.run(
                drive(
                    servers,
                    tables,
                    seconds,
                    pace,
                    level,
                    samples,
                    look_back,
                    spread,
                    cluster,
                    rolling,
                    start_spy,
                    stop_spy,
                )
            )
        finally:
            stop_spy()
            for spy in spies:
                spy.wait(timeout=60)
            stop_servers(servers, cluster)
        if cluster is not None:
            lost = lost_moves(database_url, tally.acknowledged)
    wall = after.at - before.at
    server_cpu = after.tree_cpu - before.tree_cpu + (rolling.cpu_carried if rolling else 0.0)
    result = {
        "tables": tables,
        "front": front,
        "seconds": round(wall, 1),
        "pace": pace,
        "level": level,
        "database": "postgresql" if database_url.startswith("postgres") else "sqlite",
        "channel_layer": "redis" if redis else "memory",
        "conn_max_age": int(extra_env.get("CONN_MAX_AGE", 60)),
        "servers": server_count,
        "spread": spread,
        "deals_ended": tally.deals_ended,
        "network_factor": float(env["FOOT_LIMIT_NETWORK_FACTOR"]),
        "actions": len(tally.actions),
        "turns": tally.turns,
        "finished_games": tally.finished,
        "action_p50_ms": round(percentile(tally.actions, 0.5) * 1000, 1),
        "action_p99_ms": round(percentile(tally.actions, 0.99) * 1000, 1),
        "echo_p50_ms": round(percentile(tally.echoes, 0.5) * 1000, 2),
        "echo_p99_ms": round(percentile(tally.echoes, 0.99) * 1000, 2),
        "errors": sum(tally.errors.values()),
        "error_kinds": tally.errors,
        "refused_optional": tally.refused,
        "gaps_resynced": tally.gaps,
        "server_cpu_cores": round(server_cpu / wall, 3),
        "moves_per_second": round(tally.moves / max(wall - min(pace, seconds / 4), 1e-9), 1),
        "client_cpu_cores": round(client_cpu / wall, 3),
        "service_cpu_cores": {
            name: round(used / wall, 3)
            for name, used in service_cpu_used(before.services_cpu, after.services_cpu).items()
        },
        "rss_idle_mb": round(idle.daphne_rss / 2**20, 1),
        "rss_end_mb": round(after.daphne_rss / 2**20, 1),
        "tree_rss_end_mb": round(after.tree_rss / 2**20, 1),
        "rss_start_mb": round(before.daphne_rss / 2**20, 1),
        "load_average_1m": round(os.getloadavg()[0], 2),  # the machine is shared: other work shows here
        "nice": os.getpriority(os.PRIO_PROCESS, 0),
    }
    result["p50_vs_echo"] = round(result["action_p50_ms"] / max(result["echo_p50_ms"], 0.01), 1)
    result["p99_vs_echo"] = round(result["action_p99_ms"] / max(result["echo_p99_ms"], 0.01), 1)
    result["cpu_per_table_pct"] = round(100 * result["server_cpu_cores"] / tables, 2)
    # Per move: the CPU of the run (heartbeats and idle sockets included) over the moves played.
    result["cpu_ms_per_move"] = (
        round(1000 * result["server_cpu_cores"] / result["moves_per_second"], 2) if result["moves_per_second"] else None
    )
    result["rss_per_table_kb"] = round((after.daphne_rss - idle.daphne_rss) / tables / 1024, 1)
    if look_back:
        result["look_backs"] = len(tally.look_backs)
        result["look_back_items"] = tally.look_back_items
        result["look_backs_busy"] = tally.look_backs_busy
        result["look_backs_later"] = tally.look_backs_later
        result["look_back_busy_limit"] = float(env["FOOT_LOOKBACK_BUSY"])
        result["look_backs_unanswered"] = tally.look_backs_unanswered
        result["look_back_p50_s"] = round(percentile(tally.look_backs, 0.5), 2)
        result["look_back_p99_s"] = round(percentile(tally.look_backs, 0.99), 2)
    if cluster is not None:
        result["acknowledged"], result["lost"] = len(tally.acknowledged), len(lost)
    if rolling is not None:
        result["roll"] = roll_figures(rolling, tally, lost, tables)
    if profile:
        result["profile_pct"] = summarize_profile(stacks_path(profile))
        if profile.endswith(".svg"):
            title = f"Daphne at {tables} tables, {result['cpu_ms_per_move']} ms of server CPU a move"
            Path(profile).write_text(flame_svg(Path(stacks_path(profile)).read_text(), title))
    if samples is not None:
        result["soak_samples"] = [(round(t), round(rss / 2**20, 1), fds, done) for t, rss, fds, done in samples]
        result["fds_start_end"] = (samples[0][2], samples[-1][2]) if samples else None
        grown = after.daphne_rss - before.daphne_rss
        result["rss_growth_mb"] = round(grown / 2**20, 2)
        result["growth_per_finished_game_kb"] = round(grown / tally.finished / 1024, 1) if tally.finished else None
    return result


def start_servers(servers: list[DaphneServer], cluster: Cluster | None, nice: int) -> None:
    """The Daphnes (and nginx in front of them), ready; a CommandError if they do not start."""
    try:
        if cluster is not None:
            cluster.start()
        else:
            for server in servers:
                server.start(timeout=60, nice=nice)
    except RuntimeError as failure:
        stop_servers(servers, cluster)
        raise CommandError(str(failure)) from failure


def stop_servers(servers: list[DaphneServer], cluster: Cluster | None) -> None:
    if cluster is not None:
        cluster.stop()
    for server in servers:
        server.stop()


# ---------------------------------------------------------------- the profile

# Where a sampled stack's time goes, the most specific part first.
PARTS = [
    ("engine", ("games/engine/",)),
    ("bots", ("games/bots/", "bot_runner")),
    ("serialization", ("json/", "jsonpatch", "jsonpointer")),
    ("channel layer", ("channels_redis", "redis/", "channels/layers.py", "msgpack")),
    ("database", ("django/db/", "psycopg", "sqlite3", "channels/db.py")),
    ("websocket and HTTP (daphne, twisted, autobahn)", ("daphne/", "twisted/", "autobahn/", "txaio/")),
    ("django request and session", ("django/",)),
    ("asyncio and threads", ("asyncio/", "concurrent/", "threading.py", "asgiref/")),
]


# Innermost frames of a thread with nothing to do; a wait inside psycopg is database time and stays.
IDLE = ("selectors.py", "Condition.wait", "threading.py:3", "queues.py", "connection.py:9", "_worker (concurrent")


def start_profile(pid: int, seconds: float, path: str):
    """py-spy (from the venv, measurement only) sampling Daphne and its bot pool for `seconds`, as
    collapsed stacks (`stacks_path`)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise CommandError("--profile needs py-spy: .venv/bin/pip install py-spy (not a project dependency)")
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--rate",
            "100",
            "--subprocesses",
            "--format",
            "raw",
            "--output",
            stacks_path(path),
            "--nonblocking",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stacks_path(profile: str) -> str:
    """Where py-spy writes: `profile`, or beside it for a flame graph (FILE.svg: FILE.collapsed)."""
    return profile[: -len(".svg")] + ".collapsed" if profile.endswith(".svg") else profile


def summarize_profile(path: str) -> dict:
    """Share of the sampled busy time of each part (collapsed stacks: 'frame;frame;... count')."""
    totals: dict[str, int] = {}
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")[::-1]  # innermost first
        if any(mark in frames[0] for mark in IDLE) and not any("psycopg" in frame for frame in frames):
            continue  # a thread waiting for work (py-spy --nonblocking samples some of these)
        # The first part, in PARTS' order, that any frame belongs to: a redis write through asyncio's
        # transport is channel-layer time, an engine call inside a move's transaction is engine time.
        part = next((name for name, marks in PARTS if any(m in frame for frame in frames for m in marks)), "other")
        totals[part] = totals.get(part, 0) + int(count)
    busy = sum(totals.values()) or 1
    return {name: round(100 * count / busy, 1) for name, count in sorted(totals.items(), key=lambda kv: -kv[1])}


# ---------------------------------------------------------------- the plot


def round_step(rough: float) -> float:
    """The round tick step (1, 2 or 5 times a power of ten) nearest above `rough`."""
    power = 10 ** math.floor(math.log10(rough))
    return next(power * m for m in (1, 2, 5, 10) if power * m >= rough)


def svg_plot(results: list[dict], limit_ms: float = 100.0) -> str:
    """The load curve as a hand-drawn SVG: tables against p99 (left, log scale) and RSS (right)."""
    width, height, left, right, top, bottom = 640, 380, 60, 70, 40, 50
    xs = [r["tables"] for r in results]
    p99 = [max(r["action_p99_ms"], 1.0) for r in results]
    rss = [r["rss_end_mb"] for r in results]
    x_max = max(xs) * 1.1
    low = math.floor(math.log10(min(*p99, limit_ms)))
    high = math.ceil(math.log10(max(*p99, limit_ms) * 1.2))
    m_max = max(rss) * 1.15
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(v):
        return left + plot_w * v / x_max

    def y(v):
        return top + plot_h * (1 - (math.log10(v) - low) / (high - low))

    def ym(v):
        return top + plot_h * (1 - v / m_max)

    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'
        ),
        f'<rect width="{width}" height="{height}" fill="white"/>',
        (
            f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">'
            f"bench_load: action round trip p99 and Daphne RSS against concurrent tables</text>"
        ),
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left + plot_w}" y1="{top}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
        (
            f'<line x1="{left}" y1="{y(limit_ms):.1f}" x2="{left + plot_w}" y2="{y(limit_ms):.1f}" '
            f'stroke="#c00" stroke-dasharray="6 4"/>'
        ),
        (
            f'<text x="{left + plot_w - 6}" y="{y(limit_ms) - 6:.1f}" fill="#c00" text-anchor="end">'
            f"p99 goal {limit_ms:.0f} ms</text>"
        ),
    ]
    tick = round_step(x_max / 5)
    for step in range(int(x_max // tick) + 1):
        parts.append(
            f'<text x="{x(tick * step):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{tick * step:g}</text>'
        )
    for step in range(6):
        mv = m_max * step / 5
        parts.append(f'<text x="{left + plot_w + 6}" y="{ym(mv) + 4:.1f}" fill="#630">{mv:.0f}</text>')
    for decade in range(low, high + 1):
        value = 10**decade
        label = f"{value:g}" if value < 1000 else f"{value / 1000:g} s"
        parts.append(f'<line x1="{left - 4}" y1="{y(value):.1f}" x2="{left}" y2="{y(value):.1f}" stroke="black"/>')
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#036">{label}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">tables (solo games, '
        f"one human turn per {results[0]['pace']:g} s)</text>"
    )
    parts.append(
        f'<text x="16" y="{top + plot_h / 2}" fill="#036" transform="rotate(-90 16 {top + plot_h / 2})" '
        f'text-anchor="middle">action p99 (ms, log scale)</text>'
    )
    parts.append(
        f'<text x="{width - 14}" y="{top + plot_h / 2}" fill="#630" '
        f'transform="rotate(90 {width - 14} {top + plot_h / 2})" text-anchor="middle">Daphne RSS (MB)</text>'
    )
    for values, scale, colour, dash in ((p99, y, "#036", ""), (rss, ym, "#630", ' stroke-dasharray="3 3"')):
        points = " ".join(f"{x(a):.1f},{scale(b):.1f}" for a, b in zip(xs, values, strict=True))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for a, b in zip(xs, values, strict=True):
            parts.append(f'<circle cx="{x(a):.1f}" cy="{scale(b):.1f}" r="3.5" fill="{colour}"/>')
    for a, b in zip(xs, p99, strict=True):
        parts.append(f'<text x="{x(a) + 5:.1f}" y="{y(b) + 14:.1f}" fill="#036" font-size="10">{b:.0f} ms</text>')
    for a, b in zip(xs, rss, strict=True):
        parts.append(
            f'<text x="{x(a) - 4:.1f}" y="{ym(b) - 7:.1f}" fill="#630" font-size="10" '
            f'text-anchor="middle">{b:.0f} MB</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def report_text(r: dict) -> str:
    """One run's result as the command prints it."""
    lines = []
    lines.append(
        f"{r['tables']} tables, {r['seconds']} s ({r.get('servers', 1)} Daphne"
        f"{' behind nginx' if r.get('front') == 'nginx' else ''}, {r['database']}, "
        f"CONN_MAX_AGE {r['conn_max_age']}, "
        f"{r['channel_layer']} layer, "
        f"rate limits on, per-network x{r['network_factor']:g}, "
        f"{r['turns']} human turns, {r['actions']} actions, {r['deals_ended']} deals ended, "
        f"{r['finished_games']} games finished{', tables spread over a deal' if r['spread'] else ''})\n"
        f"  action round trip p50 {r['action_p50_ms']} ms, p99 {r['action_p99_ms']} ms; "
        f"echo p50 {r['echo_p50_ms']} ms, p99 {r['echo_p99_ms']} ms; "
        f"ratio p50 x{r['p50_vs_echo']}, p99 x{r['p99_vs_echo']}\n"
        f"  errors {r['errors']} {r['error_kinds'] or ''}; optional moves refused {r['refused_optional']}; "
        f"gaps resynced {r['gaps_resynced']}\n"
        f"  moves {r.get('moves_per_second')} per second (all seats); "
        f"server CPU {r['server_cpu_cores']} cores ({r['cpu_per_table_pct']} % of a core per table, "
        f"{r.get('cpu_ms_per_move')} ms per move), "
        f"load generator {r['client_cpu_cores']} cores, "
        + ", ".join(f"{name} {cores} cores" for name, cores in r.get("service_cpu_cores", {}).items())
        + "\n"
        f"  machine load average {r['load_average_1m']} (bench at nice {r['nice']}); "
        f"Daphne RSS idle {r['rss_idle_mb']} MB, end {r['rss_end_mb']} MB "
        f"({r['rss_per_table_kb']} KB per table); with the bot pool {r['tree_rss_end_mb']} MB"
    )
    if "roll" in r:
        lines.append(roll_text(r["roll"]))
    elif "lost" in r:
        lines.append(f"  acknowledged moves {r['acknowledged']}, missing from the database {r['lost']}")
    if "look_backs" in r:
        lines.append(
            f"  look backs asked at every deal's end: {r['look_backs']} answered "
            f"(p50 {r['look_back_p50_s']} s, p99 {r['look_back_p99_s']} s, {r['look_back_items']} items), "
            f"{r['look_backs_busy']} refused as busy, {r['look_backs_later']} told to ask again later, "
            f"{r['look_backs_unanswered']} still being worked out at the end "
            f"(the search waits while others use over {r['look_back_busy_limit']:g} of the CPU)"
        )
    if "profile_pct" in r:
        lines.append(
            "  profile (share of sampled busy time): "
            + ", ".join(f"{part} {pct} %" for part, pct in r["profile_pct"].items())
        )
    if "soak_samples" in r:
        lines.append(
            f"  soak: RSS {r['rss_start_mb']} -> {r['rss_end_mb']} MB "
            f"({r['rss_growth_mb']} MB) over {r['finished_games']} finished games: "
            f"{r['growth_per_finished_game_kb']} KB per finished game"
        )
        lines.append(f"  soak: open descriptors of the Daphnes, first and last sample: {r['fds_start_end']}")
        lines.append(
            "  samples (s, MB, descriptors, finished): "
            + " ".join(f"{t}:{m}:{f}:{d}" for t, m, f, d in r["soak_samples"])
        )
    return "\n".join(lines)
