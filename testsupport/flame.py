"""A flame graph of where a server's CPU goes, drawn from py-spy's collapsed stacks (bench_load
--profile FILE.svg; docs/PERFORMANCE.md shows one).

py-spy's own flame graph keeps the samples of threads that wait (the event loop in epoll, the
pool's idle workers, a query waiting for PostgreSQL's answer): on a server at 300 tables those
are most of the picture and hide the hot path. Here a stack whose innermost frame waits is left
out, line numbers are dropped so that a function is one box, and the boxes are plain SVG
rectangles with a title each (the browser shows it on hover).
"""

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

# Innermost frames that wait rather than compute (the GIL is let go meanwhile).
WAITS = (
    "selectors.py",
    "Condition.wait",
    "Event.wait",
    "_wait_for_tstate_lock",
    "queue.py",
    "_worker (concurrent/futures/thread.py)",
    "Connection.wait (psycopg",
    "_read_from_socket (redis",
)
WIDTH, ROW, FONT = 1200, 16, 11
LINE_NUMBER = re.compile(r":\d+\)$")


@dataclass
class Node:
    samples: int = 0
    children: dict[str, "Node"] = field(default_factory=dict)


def busy_stacks(collapsed: str) -> Iterable[tuple[list[str], int]]:
    """(frames outermost first, without line numbers; samples) of every stack that computes."""
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = [LINE_NUMBER.sub(")", frame) for frame in stack.split(";")[1:]]  # [0] is the process
        if frames and not any(mark in frames[-1] for mark in WAITS):
            yield frames, int(count)


def tree_of(stacks: Iterable[tuple[list[str], int]]) -> Node:
    root = Node()
    for frames, count in stacks:
        node = root
        node.samples += count
        for frame in frames:
            node = node.children.setdefault(frame, Node())
            node.samples += count
    return root


def boxes(node: Node, x: float, depth: int, scale: float) -> Iterable[tuple[str, float, int, float, int]]:
    """(frame, x, depth, width, samples) of every box under `node`, the widest child first."""
    for frame, child in sorted(node.children.items(), key=lambda item: -item[1].samples):
        width = child.samples * scale
        if width >= 0.5:  # narrower boxes are invisible; their samples still widen the parents
            yield frame, x, depth, width, child.samples
            yield from boxes(child, x, depth + 1, scale)
        x += width


def flame_svg(collapsed: str, title: str) -> str:
    """The SVG of the busy stacks in `collapsed` (py-spy's raw format), the outermost at the top."""
    root = tree_of(busy_stacks(collapsed))
    scale = WIDTH / max(root.samples, 1)
    drawn = list(boxes(root, 0.0, 0, scale))
    height = (max((depth for _f, _x, depth, _w, _n in drawn), default=0) + 3) * ROW
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="monospace"'
    caption = f"{html.escape(title)} ({root.samples} busy samples)"
    parts = [f'{head} font-size="{FONT}"><text x="4" y="{ROW - 4}">{caption}</text>']
    for frame, x, depth, width, samples in drawn:
        share = 100 * samples / root.samples
        hue = 20 + (sum(map(ord, frame)) % 40)  # a stable warm colour per function
        label = html.escape(frame[: max(int(width / (FONT * 0.6)) - 1, 0)])
        y = (depth + 1) * ROW
        parts.append(
            f"<g><title>{html.escape(frame)}: {share:.1f} %</title>"
            f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="{ROW - 1}" fill="hsl({hue},85%,60%)"/>'
            f'<text x="{x + 2:.1f}" y="{y + ROW - 4}">{label}</text></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
