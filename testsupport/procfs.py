"""What the benchmarks read of a process from /proc (Linux): its tree of children, its resident
memory and its CPU time. Shared by bench_load and bench_server."""

import os

PAGE = 4096  # bytes per memory page (Linux /proc/<pid>/statm)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants (the bot pool's workers), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(children.get(current, []))
    return tree


def rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except OSError:
        return 0


def cpu_seconds(pid: int, reaped_children: bool = False) -> float:
    """utime + stime of the process; with `reaped_children`, also what its ended children used."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        used = int(fields[11]) + int(fields[12])
        if reaped_children:
            used += int(fields[13]) + int(fields[14])  # cutime + cstime
        return used / CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


def open_descriptors(pid: int) -> int:
    """How many file descriptors the process holds (sockets, files, pipes); 0 when it is gone."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0
