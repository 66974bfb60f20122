"""server.serve: Daphne's command line on uvloop (docs/DEPLOY.md). Every Daphne the tests start
runs through it (testsupport.daphne); these check that the loop under Daphne's reactor really is
uvloop's, and that the development venv's click no longer colours autobahn's per-frame log arguments."""

import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import server.serve as serve
assert serve.install_uvloop()
serve.plain_autobahn_log_arguments()
import daphne.server  # makes the loop Twisted's reactor drives, on import
from twisted.internet import reactor
import autobahn.util
print(type(reactor._asyncioEventloop).__module__, autobahn.util.hl("x"))
"""


def test_daphne_runs_on_uvloop_with_plain_log_arguments():
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["uvloop", "x"]  # "x" uncoloured: no escape codes around it
