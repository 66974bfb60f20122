"""The flame graph of bench_load --profile FILE.svg (testsupport/flame.py): busy stacks only, one box a
function, widths in proportion to the samples."""

import re

from testsupport.flame import WIDTH, busy_stacks, flame_svg

PROCESS = 'process 1:"python -m server.serve"'
COLLAPSED = "\n".join(
    [
        f"{PROCESS};main (server/serve.py:150);apply_move (games/rooms/moves.py:86);execute (psycopg/x.py:3) 30",
        f"{PROCESS};main (server/serve.py:150);apply_move (games/rooms/moves.py:88);view (games/engine/game.py:9) 10",
        f"{PROCESS};_bootstrap (threading.py:1);_worker (concurrent/futures/thread.py:81) 500",
        f"{PROCESS};main (server/serve.py:150);Connection.wait (psycopg/connection.py:495) 400",
        "a line that is not a stack",
    ]
)


def test_only_the_stacks_that_compute_are_kept_and_line_numbers_are_dropped():
    stacks = list(busy_stacks(COLLAPSED))
    assert [count for _frames, count in stacks] == [30, 10]
    assert stacks[0][0] == ["main (server/serve.py)", "apply_move (games/rooms/moves.py)", "execute (psycopg/x.py)"]


def test_a_function_is_one_box_as_wide_as_its_share_of_the_busy_samples():
    svg = flame_svg(COLLAPSED, "Daphne at 3 tables")
    assert "40 busy samples" in svg and "Daphne at 3 tables" in svg
    widths = dict(re.findall(r"<title>([^<]+): [\d.]+ %</title><rect [^>]*width=\"([\d.]+)\"", svg))
    assert float(widths["main (server/serve.py)"]) == WIDTH
    assert float(widths["apply_move (games/rooms/moves.py)"]) == WIDTH  # both lines of it, one box
    assert float(widths["execute (psycopg/x.py)"]) == 0.75 * WIDTH
    assert float(widths["view (games/engine/game.py)"]) == 0.25 * WIDTH
    assert "_worker" not in svg and "Connection.wait" not in svg
