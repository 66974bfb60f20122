"""Every FOOT_* setting is documented where an operator looks (docs/ARCHITECTURE.md: "A new
setting"): each one server/settings.py declares has a row in docs/DEPLOY.md's environment table,
and every FOOT_* name that table gives is one the settings still read.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECLARED = re.compile(r"^(FOOT_[A-Z0-9_]+)\s*=", re.MULTILINE)
NAMED = re.compile(r"`(FOOT_[A-Z0-9_]+)`")


def declared_settings() -> set[str]:
    return set(DECLARED.findall((ROOT / "server" / "settings.py").read_text(encoding="utf-8")))


def documented_settings() -> set[str]:
    """The FOOT_* names in the first cell of a row of docs/DEPLOY.md's tables."""
    rows = [
        line for line in (ROOT / "docs" / "DEPLOY.md").read_text(encoding="utf-8").splitlines() if line.startswith("|")
    ]
    return {name for row in rows for name in NAMED.findall(row.split("|")[1])}


def test_every_foot_setting_has_its_row_in_deploy_md():
    declared = declared_settings()
    assert len(declared) > 40  # the scan reads the settings, not an empty file
    assert declared - documented_settings() == set(), "add a row to docs/DEPLOY.md's Environment table"


def test_deploy_md_names_no_setting_that_is_gone():
    assert documented_settings() - declared_settings() == set()
