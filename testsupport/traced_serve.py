"""Daphne (server.serve) under tracemalloc, for bench_leak: `python -m testsupport.traced_serve
[daphne's arguments]`, started by testsupport.daphne when FOOT_DAPHNE_MODULE names it.

When a file named `request` appears in the directory BENCH_TRACE_DIR names, the process collects
its garbage and writes `<name>.json` there (`name` being the request's content): the memory
tracemalloc traces, the RSS, the count of live objects by type, and the allocation sites that
grew most since the first request. Then it removes the request: the bench asks between batches
of games and compares the answers. Measurement only: tracing slows the server several times.
"""

import collections
import gc
import json
import linecache
import os
import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 6  # frames kept per allocation: enough to see who made what grew
SITES = 15  # allocation sites reported, the most grown first
TYPES = 400  # object types reported, the most numerous first


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def object_counts() -> list[tuple[str, int]]:
    counts = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
    return counts.most_common(TYPES)


def without_this_probe(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    """The server's own allocations: not the probe's, nor the source lines its reports read."""
    probe = (__file__, tracemalloc.__file__, linecache.__file__)
    return snapshot.filter_traces([tracemalloc.Filter(False, name, all_frames=True) for name in probe])


def grown_sites(snapshot: tracemalloc.Snapshot, first: tracemalloc.Snapshot | None) -> list[dict]:
    if first is None:
        return []
    stats = snapshot.compare_to(first, "traceback")
    return [
        {"kb": round(stat.size_diff / 1024, 1), "blocks": stat.count_diff, "where": stat.traceback.format()}
        for stat in stats[:SITES]
    ]


def answer_requests(folder: Path) -> None:
    """Waits for requests and answers them (a daemon thread of the server)."""
    request, first = folder / "request", None
    while True:
        time.sleep(0.2)
        if not request.exists():
            continue
        name = request.read_text().strip()
        gc.collect()
        snapshot = without_this_probe(tracemalloc.take_snapshot())
        dump = {
            "traced_kb": sum(stat.size for stat in snapshot.statistics("filename")) // 1024,
            "rss_kb": rss_kb(),
            "types": object_counts(),
            "grown": grown_sites(snapshot, first),
        }
        first = first or snapshot
        (folder / f"{name}.json").write_text(json.dumps(dump))
        request.unlink()


def main() -> None:
    tracemalloc.start(FRAMES)
    folder = Path(os.environ["BENCH_TRACE_DIR"])
    threading.Thread(target=answer_requests, args=(folder,), daemon=True).start()
    sys.argv[0] = "server.serve"
    runpy.run_module("server.serve", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
