"""A rolling restart through the real front (issue 26, items 4 and 5), run by bench_load's own
machinery (testsupport/bench_load.py, `--front nginx --roll`) at a small scale: nginx
(deploy/nginx.conf) in front of two Daphnes on PostgreSQL and Redis (testsupport/cluster.py, as
`make cluster` runs it), tables playing through nginx while each Daphne in turn gets SIGTERM, exits
and comes back. Every game socket it held is closed with 1012, its table connects again through
nginx with the page's backoff and resumes at or past its last acknowledged version, every table
is back within 5 s, and at the end every acknowledged move is in the stored move log. Prints
bench_load's report: the reconnect times (worst, p99) and the move latencies during the roll.

The bounds on time are wide (a loaded 2-core machine); those on correctness are exact.
"""

import concurrent.futures
import uuid

import pytest

from testsupport import bench_load
from testsupport.bench_roll import BACK_WITHIN
from testsupport.cluster import nginx_binary
from testsupport.services import service_missing

from .conftest import SIMPLE_BOTS

pytestmark = pytest.mark.services

TABLES = 36
PACE = 2.0  # seconds between a table's turns
SECONDS = 6.0  # the window: the roll begins a third of the way in, and play goes on 5 s after it
DRAIN_SECONDS = 5


def test_rolling_restart_through_nginx_loses_no_acknowledged_move(postgres_url, redis_url, tmp_path):
    if nginx_binary() is None:
        service_missing("nginx is not installed (make system-packages)")
    env = {**SIMPLE_BOTS, "FOOT_DRAIN_SECONDS": DRAIN_SECONDS, "FOOT_LIMIT_PREFIX": f"foot-test:{uuid.uuid4().hex}"}
    # In a thread of its own: asyncio.run cannot start where an event loop runs (Playwright's sync
    # API, used by the browser tests on the same worker, leaves one running).
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as runner:
        result = runner.submit(
            bench_load.run_once,
            TABLES,
            SECONDS,
            PACE,
            "easy",
            None,
            redis_url,
            tmp_path,
            False,
            env,
            server_count=2,
            front="nginx",
            roll=True,
            database_url=postgres_url,
        ).result()
    print("\n" + bench_load.report_text(result))
    roll = result["roll"]
    assert result["errors"] == 0, result["error_kinds"]
    assert roll["other_closes"] == 0  # every socket that closed was closed with 1012
    assert roll["tables_never_closed"] == 0  # the second process to restart held every table
    assert roll["reconnect_worst_s"] < BACK_WITHIN
    assert roll["resumed_behind"] == 0
    assert all(seconds < DRAIN_SECONDS + 3 for seconds in roll["exits_s"])
    assert roll["during_actions"] > 0  # moves were played while the processes restarted
    assert roll["acknowledged"] > 0
    assert roll["lost"] == 0, roll["lost_examples"]
