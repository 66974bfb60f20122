"""Compiled message catalogues for a test run: `make test` builds them first, a bare pytest run may not.

The .mo files are not in git; tests of the German and Bengali texts need them, so the test session
compiles the stale ones before any test runs (one process at a time, so no .mo is written twice).
"""

import fcntl
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def stale_catalogues() -> list[Path]:
    catalogues = (ROOT / "locale").glob("*/LC_MESSAGES/*.po")
    return [
        po
        for po in catalogues
        if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]


def compile_if_stale(env: dict) -> None:
    """Runs compilemessages when a .po is newer than its .mo (nothing without gettext's msgfmt)."""
    if not shutil.which("msgfmt") or not stale_catalogues():
        return
    with open(Path(tempfile.gettempdir()) / "foot-compilemessages.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stale_catalogues():
            subprocess.run(
                [sys.executable, "manage.py", "compilemessages", "--ignore=.venv", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=False,
                timeout=120,
            )


def compiled(language: str) -> bool:
    return (ROOT / "locale" / language / "LC_MESSAGES" / "django.mo").exists()
