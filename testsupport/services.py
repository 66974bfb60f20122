"""What a test does when a service it needs (PostgreSQL, Redis, Chromium) is not there.

On a developer's machine it skips, and `-rs` lists the skip; under CI (`CI=true`) it fails, so that a
run whose database did not start cannot pass.
"""

import os
from typing import NoReturn

import pytest

TRUE_WORDS = {"1", "true", "yes", "on"}


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in TRUE_WORDS


def service_missing(reason: str) -> NoReturn:
    """Skip the calling test, or fail it under CI; never returns."""
    if under_ci():
        pytest.fail(f"{reason} (CI=true: a missing service is a failure)", pytrace=False)
    pytest.skip(reason)
