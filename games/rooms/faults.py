"""Test-only crash injection: with the test hooks on (FOOT_TEST_HOOKS), the setting
FOOT_FAULT=<point>[@<version>] (off by default) makes the process
`os._exit(137)` at one of the points after_apply, before_commit, after_commit, bot_thinking, to
prove that a kill at any moment loses no acknowledged move and leaves no half-applied one
(tests/rooms/test_live_faults.py). Calls nothing.
"""

import os

from django.conf import settings


def fault(point: str, version: int | None = None) -> None:
    """Test-only crash injection: exit at once, as kill -9 would, at the configured point."""
    wanted = settings.FOOT_FAULT if settings.FOOT_TEST_HOOKS else ""
    if not wanted:
        return
    name, _, at_version = wanted.partition("@")
    if name != point:
        return
    if at_version and (version is None or version < int(at_version)):
        return
    os._exit(137)
