"""Test-only fault injection: with the test hooks on (FOOT_TEST_HOOKS), the setting
FOOT_FAULT=<point>[@<version>][:lost] (off by default) makes the process `os._exit(137)` at one
of the points after_apply, before_commit, after_commit, bot_thinking, to prove that a kill at any
moment loses no acknowledged move and leaves no half-applied one (tests/rooms/test_live_faults.py).
With `:lost` it raises a database error there once instead, as a connection cut after the commit
and before its answer does (the move is stored, its caller hears a failure). Calls nothing.
"""

import os

from django.conf import settings
from django.db import OperationalError

_lost_once: set[str] = set()  # the `:lost` faults already raised: each raises once per process


def fault(point: str, version: int | None = None) -> None:
    """Test-only fault injection: exit at once, as kill -9 would, at the configured point (or
    raise a lost connection there once)."""
    wanted = settings.FOOT_FAULT if settings.FOOT_TEST_HOOKS else ""
    if not wanted:
        return
    where, _, mode = wanted.partition(":")
    name, _, at_version = where.partition("@")
    if name != point:
        return
    if at_version and (version is None or version < int(at_version)):
        return
    if mode != "lost":
        os._exit(137)
    if wanted not in _lost_once:
        _lost_once.add(wanted)
        raise OperationalError(f"fault {wanted}: the connection was lost before the answer")
