"""Run Daphne with every thread under cProfile, timing CPU per thread (time.thread_time), and write
the merged statistics to $FOOT_CPROFILE_OUT when the process exits (Daphne exits on SIGTERM).

For `python -m benchmarks bench_server --cprofile FILE` (docs/PERFORMANCE.md, "Where the time goes"): a
sampling profiler counts waiting as work here, and a plain cProfile sees one thread only. The
profiler's own cost inflates every figure several times; only the shares are meant to be read.
Usage: python scripts/cprofile_daphne.py -b 127.0.0.1 -p 8001 server.asgi:application
"""

import atexit
import cProfile
import os
import pstats
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
profiles: list[cProfile.Profile] = []
_thread_run = threading.Thread.run


def profiled_run(self):
    profile = cProfile.Profile(time.thread_time)
    profiles.append(profile)
    profile.enable()
    try:
        _thread_run(self)
    finally:
        profile.disable()


def write_stats():
    merged = None
    for profile in profiles:
        profile.disable()  # stops the main thread's; the others' data is read as it stands
        profile.create_stats()
        merged = pstats.Stats(profile) if merged is None else merged.add(profile)
    if merged is not None:
        merged.dump_stats(os.environ["FOOT_CPROFILE_OUT"])


threading.Thread.run = profiled_run  # type: ignore[method-assign]  # profile every thread, as it starts
main_profile = cProfile.Profile(time.thread_time)
profiles.append(main_profile)
atexit.register(write_stats)
main_profile.enable()

from server.serve import install_uvloop, plain_autobahn_log_arguments  # noqa: E402  (as the server runs)

install_uvloop()
plain_autobahn_log_arguments()
from daphne.cli import CommandLineInterface  # type: ignore[import-untyped]  # noqa: E402  (no type hints)

sys.argv = ["daphne", *sys.argv[1:]]
CommandLineInterface.entrypoint()
