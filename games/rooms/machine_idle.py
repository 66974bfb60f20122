"""A look-back worker's manners: between rounds of its search it waits while the machine's CPUs
are busy with other work, so a look back uses only CPU that is really idle.

The worker already runs in the idle class (bot_runner.lower_priority): the kernel gives it a CPU
only when nothing else wants one. On the 2-vCPU virtual machines we measure on, that is not
enough near saturation: a pure idle-class spinner beside 300 tables doubled the moves' median
round trip (docs/journal/PERFORMANCE-2026.md, session 9), because a busy vCPU still costs the other one
through the host (a shared core, caches, the host's scheduler). So the worker also reads
/proc/stat: what the machine's CPUs spent on everything but niced processes (the worker's own
time is niced, so it does not count itself) over the last window. While that is above
`busy_limit` of all CPUs, it sleeps; the search itself stays deterministic, it only waits.

Pure standard library: it runs in the worker process, which knows nothing of Django's settings.
"""

import time
from collections.abc import Callable

STAT = "/proc/stat"
WINDOW_TICKS = 20  # a verdict needs this many clock ticks of all CPUs (100 ms on 2 CPUs at 100 Hz)
PAUSE_SECONDS = 0.1  # one wait before the machine is read again


def cpu_ticks(path: str = STAT) -> tuple[int, int] | None:
    """(ticks busy with other work, all ticks) of the whole machine since boot; None without /proc."""
    try:
        with open(path, "rb") as stat:
            fields = stat.readline().split()[1:9]
    except OSError:
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = (int(value) for value in fields)
    return user + system + irq + softirq + steal, user + nice + system + idle + iowait + irq + softirq + steal


class MachineIdle:
    """Called between rounds of the search: returns at once while the machine has idle CPU, and
    waits while others keep more than `busy_limit` of it busy. A limit of 1 or more never waits."""

    def __init__(
        self,
        busy_limit: float,
        read: Callable[[], tuple[int, int] | None] = cpu_ticks,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.busy_limit, self.read, self.sleep = busy_limit, read, sleep
        self.mark = read() if busy_limit < 1 else None
        self.busy = False  # the last window's verdict
        self.waited = 0.0  # seconds spent waiting (the tests read it)

    def __call__(self) -> None:
        if self.mark is None:
            return
        while True:
            self.judge()
            if not self.busy:
                return
            self.sleep(PAUSE_SECONDS)
            self.waited += PAUSE_SECONDS

    def judge(self) -> None:
        """A new verdict once a whole window has passed since the last one; else the last stands."""
        now = self.read()
        if now is None or self.mark is None:  # /proc/stat went away: nothing to wait for
            self.busy = False
            return
        busy, total = now[0] - self.mark[0], now[1] - self.mark[1]
        if total < WINDOW_TICKS:
            return
        self.mark = now
        self.busy = busy > self.busy_limit * total
