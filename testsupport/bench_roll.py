"""bench_load's rolling restart (issue 26, item 4): every Daphne of the cluster behind nginx
(testsupport/cluster.py) restarted one at a time during the measured window, and what the roll
cost: acknowledged moves missing from the stored move log, the tables' reconnect times, and the
move latencies during the roll against those outside it.

The tables (testsupport/bench_load.Table) reconnect after a 1012 as the page does and record what
this module checks; `RollingRestart.run` is the roll itself, `roll_figures` the result's numbers.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import psycopg

from testsupport.cluster import Cluster
from testsupport.procfs import cpu_seconds, process_tree
from testsupport.stats import percentile

BACK_WITHIN = 5.0  # seconds: the bound on a table's reconnect (issue 26)
SETTLE = 5.0  # seconds the tables play on after the last process is back, so the roll's tail is measured
BACK_TIMEOUT = 60.0  # the longest a restart waits for the tables of the one before to be back


def tree_cpu(pid: int) -> float:
    return sum(map(cpu_seconds, process_tree(pid)))


@dataclass
class RollingRestart:
    """SIGTERM one Daphne, wait for its exit, start its replacement on the same port, wait until it
    is ready (`Cluster.restart`) and until the tables it closed are back (`tables_back`, as
    docs/DEPLOY.md advises: else the next process is stopped under tables still reconnecting to
    it), then the next; beginning `delay` seconds into the window.

    `cpu_carried` keeps the server CPU of the run right across the restarts: each old process's CPU
    up to its SIGTERM, less its replacement's once ready (the drain and the start-up are left out),
    so that the run's (CPU at the end) - (CPU at the start) plus it is the CPU of the play."""

    cluster: Cluster
    delay: float
    began: float | None = None
    ended: float | None = None
    exits: list[float] = field(default_factory=list)  # seconds from SIGTERM to each process's exit
    steps: list[float] = field(default_factory=list)  # when each process got its SIGTERM (monotonic)
    cpu_carried: float = 0.0
    tables_back: Callable[[], bool] = lambda: True  # no table between a close and its state
    waits: list[float] = field(default_factory=list)  # seconds each restart waited for its tables

    async def run(self, window_start: float) -> None:
        await asyncio.sleep(max(0.0, window_start + self.delay - time.monotonic()))
        self.began = time.monotonic()
        for index, daphne in enumerate(self.cluster.daphnes):
            self.cpu_carried += tree_cpu(daphne.started().pid)
            self.steps.append(time.monotonic())
            self.exits.append(await asyncio.to_thread(self.cluster.restart, index))
            self.cpu_carried -= tree_cpu(daphne.started().pid)
            await self.wait_for_tables()
        self.ended = time.monotonic()

    async def wait_for_tables(self) -> None:
        began = time.monotonic()
        await asyncio.sleep(0.5)  # a close seen through nginx just after the exit
        while not self.tables_back() and time.monotonic() - began < BACK_TIMEOUT:
            await asyncio.sleep(0.1)
        self.waits.append(round(time.monotonic() - began, 1))

    def step_of(self, at: float) -> int:
        """The restart (0, 1, ...) a close at `at` (monotonic) followed."""
        return max((n for n, signalled in enumerate(self.steps) if signalled <= at), default=0)

    def during(self, at: float) -> bool:
        """Whether a move sent at `at` (monotonic) was sent while the roll went on."""
        return self.began is not None and self.ended is not None and self.began <= at <= self.ended


def stored_moves(database_url: str, game_ids: set[str]) -> dict[tuple[str, int], tuple[str, dict]]:
    """(game id, version) -> (seat, action) of every stored move of those games."""
    with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as db:
        rows = db.execute(
            "select game_id, seq, seat, action from games_move where game_id = any(%s)",
            ([uuid.UUID(game) for game in game_ids],),
        ).fetchall()
    return {
        (str(game), seq): (seat, action if isinstance(action, dict) else json.loads(action))
        for game, seq, seat, action in rows
    }


def lost_moves(database_url: str, acknowledged: list[tuple[str, int, str, dict]]) -> list[tuple[str, int]]:
    """The acknowledged moves (a patch with their ref arrived) that the move log does not hold as
    sent: (game id, version) of each."""
    stored = stored_moves(database_url, {game for game, *_ in acknowledged})
    return [(game, v) for game, v, seat, action in acknowledged if stored.get((game, v)) != (seat, action)]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def roll_figures(roll: RollingRestart, tally, lost: list, tables: int) -> dict:
    """The result's numbers of the roll (`tally` is bench_load's Tally)."""
    during = [s for at, s in zip(tally.action_at, tally.actions, strict=True) if roll.during(at)]
    outside = [s for at, s in zip(tally.action_at, tally.actions, strict=True) if not roll.during(at)]
    worst = tally.worst_reconnect
    seconds = [took for _at, took in tally.reconnects]
    by_step = [[took for at, took in tally.reconnects if roll.step_of(at) == n] for n in range(len(roll.steps))]
    # how long after each SIGTERM its process's tables saw their sockets close
    closed_after = [
        [at - signalled for at, _took in tally.reconnects if roll.step_of(at) == n]
        for n, signalled in enumerate(roll.steps)
    ]
    return {
        "roll_seconds": round((roll.ended or 0) - (roll.began or 0), 1),
        "exits_s": [round(e, 2) for e in roll.exits],
        "waits_s": roll.waits,
        "restart_closes": tally.restart_closes,
        "other_closes": tally.other_closes,
        "tables_reconnected": len(worst),
        "tables_never_closed": tables - len(worst),
        "reconnects": len(seconds),
        "reconnect_worst_s": round(max(seconds, default=float("nan")), 3),
        "reconnect_p99_s": round(percentile(seconds, 0.99), 3),
        "reconnect_p50_s": round(percentile(seconds, 0.5), 3),
        # each restart's reconnects: how many, p50 and worst (the last one moves every table)
        "by_restart": [(len(s), round(percentile(s, 0.5), 2), round(max(s, default=float("nan")), 2)) for s in by_step],
        "closed_after_sigterm": [
            (round(percentile(c, 0.5), 2), round(max(c, default=float("nan")), 2)) for c in closed_after
        ],
        "tables_back_late": sum(1 for took in worst.values() if took >= BACK_WITHIN),
        "reconnect_retries": sum(tally.reconnect_failures.values()),
        "reconnect_failures": tally.reconnect_failures,
        "resumed_behind": tally.behind,
        "acknowledged": len(tally.acknowledged),
        "lost": len(lost),
        "lost_examples": lost[:5],
        "cut_by_close": tally.cut,
        "during_actions": len(during),
        "during_p50_ms": ms(percentile(during, 0.5)),
        "during_p99_ms": ms(percentile(during, 0.99)),
        "during_max_ms": ms(max(during, default=float("nan"))),
        "outside_actions": len(outside),
        "outside_p50_ms": ms(percentile(outside, 0.5)),
        "outside_p99_ms": ms(percentile(outside, 0.99)),
    }


def roll_text(r: dict) -> str:
    """The roll's lines of bench_load's report."""
    return (
        f"  rolling restart of {len(r['exits_s'])} Daphnes through nginx in {r['roll_seconds']} s "
        f"(each out {r['exits_s']} s after SIGTERM, its tables back {r.get('waits_s')} s after that): "
        f"{r['restart_closes']} sockets closed with 1012, "
        f"{r['other_closes']} otherwise; {r['tables_reconnected']} tables reconnected "
        f"({r['tables_never_closed']} never closed), {r['reconnects']} reconnects "
        f"({r['reconnect_retries']} retries {r['reconnect_failures'] or ''}): worst {r['reconnect_worst_s']} s, "
        f"p99 {r['reconnect_p99_s']} s, p50 {r['reconnect_p50_s']} s (each restart's count, p50, worst: "
        f"{r['by_restart']}; closed after each SIGTERM, p50 and last: {r['closed_after_sigterm']}); "
        f"{r['tables_back_late']} tables back after {BACK_WITHIN:g} s or more; "
        f"{r['resumed_behind']} resumed behind their last acknowledged move\n"
        f"  acknowledged moves {r['acknowledged']}, lost {r['lost']} {r['lost_examples'] or ''}; "
        f"actions cut by a close (not acknowledged) {r['cut_by_close']}\n"
        f"  action round trip during the roll p50 {r['during_p50_ms']} ms, p99 {r['during_p99_ms']} ms, "
        f"max {r['during_max_ms']} ms ({r['during_actions']} actions); outside it p50 {r['outside_p50_ms']} ms, "
        f"p99 {r['outside_p99_ms']} ms ({r['outside_actions']} actions)"
    )
