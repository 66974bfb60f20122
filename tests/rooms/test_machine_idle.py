"""A look-back worker waits while the machine's CPUs are busy with other work (issue #14 item 6:
the 300-table bench_load must hold with players asking for look backs)."""

import pytest

from games.rooms import machine_idle
from games.rooms.machine_idle import WINDOW_TICKS, MachineIdle, cpu_ticks


class Machine:
    """A /proc/stat that advances one window per read, busy by others as the script says."""

    def __init__(self, busy_shares: list[float]):
        self.shares, self.busy, self.total, self.reads = list(busy_shares), 0, 0, 0

    def read(self) -> tuple[int, int]:
        self.reads += 1
        if self.reads > 1:  # the first read is the mark the first window starts from
            share = self.shares.pop(0) if self.shares else 0.0
            self.busy += round(share * WINDOW_TICKS)
            self.total += WINDOW_TICKS
        return self.busy, self.total


def test_it_waits_while_others_keep_the_machine_busy_and_goes_on_when_it_is_idle():
    machine = Machine([0.9, 0.8, 0.3])
    slept: list[float] = []
    pause = MachineIdle(0.5, read=machine.read, sleep=slept.append)
    pause()
    assert len(slept) == 2 and pause.waited == pytest.approx(2 * machine_idle.PAUSE_SECONDS)
    assert not pause.busy


def test_within_one_window_the_last_verdict_stands():
    ticks = iter([(0, 0), (18, 20), (18, 25)])  # a busy window, then five ticks: too few to judge
    slept: list[float] = []
    pause = MachineIdle(0.5, read=lambda: next(ticks, (18, 45)), sleep=slept.append)
    pause()  # busy (18 of 20), waits; 5 more ticks say nothing; then 20 idle ticks: goes on
    assert len(slept) == 2 and not pause.busy


def test_an_idle_machine_never_waits_and_a_limit_of_one_never_reads():
    machine = Machine([0.1, 0.2, 0.4])
    slept: list[float] = []
    pause = MachineIdle(0.5, read=machine.read, sleep=slept.append)
    for _ in range(3):
        pause()
    assert slept == []
    never = Machine([1.0])
    MachineIdle(1.0, read=never.read, sleep=slept.append)()
    assert never.reads == 0 and slept == []


def test_without_proc_stat_it_never_waits(tmp_path):
    assert cpu_ticks(str(tmp_path / "missing")) is None
    slept: list[float] = []
    MachineIdle(0.5, read=lambda: None, sleep=slept.append)()
    assert slept == []


def test_the_machines_ticks_leave_out_niced_time_where_the_worker_runs(tmp_path):
    stat = tmp_path / "stat"
    #                 user nice system idle iowait irq softirq steal
    stat.write_text("cpu  100 500 20 300 7 1 2 3 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    assert cpu_ticks(str(stat)) == (100 + 20 + 1 + 2 + 3, 100 + 500 + 20 + 300 + 7 + 1 + 2 + 3)
    real = cpu_ticks()
    assert real is None or 0 <= real[0] <= real[1]


def test_a_negative_limit_waits_even_on_an_idle_machine():
    """FOOT_LOOKBACK_BUSY=-1: look backs that never finish, for the tests of the queue's shares (a
    limit of 0 still goes on in a window where the machine happens to be wholly idle)."""

    class Stop(Exception):
        pass

    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 5:
            raise Stop

    with pytest.raises(Stop):
        MachineIdle(-1, read=Machine([0.0] * 10).read, sleep=sleep)()
    assert len(slept) == 5
