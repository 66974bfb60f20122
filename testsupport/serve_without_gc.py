"""Daphne (server.serve) with Python's cyclic garbage collector off: `python -m
testsupport.serve_without_gc [daphne's arguments]`, started by testsupport.daphne when
FOOT_DAPHNE_MODULE names it. For a test that must see what the server leaves for the collector
to free (tests/reliability/test_request_connections.py): with the collector on, when it runs
decides what the test sees.
"""

import gc
import runpy
import sys


def main() -> None:
    gc.disable()
    sys.argv[0] = "server.serve"
    runpy.run_module("server.serve", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
