"""Commit subjects stay under 72 characters, the details in the body (issue 17, "Habits").

Checked over the commits made after 2f7ef88 (2 Dec 2026, 08:17 UTC): earlier history on main is
not rewritten, and thirteen subjects of that day run to 73–80 characters (the session's closing
note lists them). A checkout without that history (an export, a shallow clone) has no commits
after it to check, which is correct, not a skip: the subjects checked are those it has.
"""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SINCE = "2026-12-02T08:17:38+00:00"  # 2f7ef88's commit time
LIMIT = 72
# Landed on main before the check caught them; main is not rewritten, so they are named here.
LANDED_LONG = {
    "994db29439d69d5c3a8515e8a7752f2322dd6542",  # 74 characters, 3 Dec 2026
}


def subjects_since(since: str, repo: Path = ROOT) -> list[str]:
    found = subprocess.run(
        ["git", "log", f"--since={since}", "--format=%H %ct %s"], cwd=repo, capture_output=True, text=True, check=False
    )
    if found.returncode != 0:  # not a git checkout: no history to check
        return []
    commits = [line.split(" ", 2) for line in found.stdout.splitlines() if line.count(" ") >= 2]
    return [subject for commit, _time, subject in commits if commit not in LANDED_LONG]


def test_subjects_of_new_commits_are_under_72_characters():
    long = [subject for subject in subjects_since(SINCE) if len(subject) > LIMIT]
    assert not long, f"commit subjects over {LIMIT} characters (put the details in the body): {long}"


def test_the_check_reads_the_subjects_of_a_repository(tmp_path):
    def git(*args: str) -> None:
        identity = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid"]
        subprocess.run(["git", *identity, *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("commit", "-q", "--allow-empty", "-m", "A subject with its details below\n\nThe body.")
    assert subjects_since("2000-01-01", tmp_path) == ["A subject with its details below"]
