"""The commit-subject checker (scripts/check_commit_subjects.py) reads and judges subjects right.

The repository's own subjects are checked by .ci/run (and by the commit-msg hook of
.pre-commit-config.yaml), not here: these tests run the script on a small repository of their own.
"""

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_commit_subjects.py"
SUBJECT_72 = "A" * 72


def git(repo: Path, *args: str, date: str | None = None) -> None:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid"]
    env = {**os.environ, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date} if date else None
    subprocess.run(["git", *identity, *args], cwd=repo, check=True, capture_output=True, env=env)


def check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_a_repository_of_short_subjects_passes_and_a_long_one_fails(tmp_path):
    git(tmp_path, "init", "-q")
    body = "The body may be as long as it needs. " * 5
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", f"{SUBJECT_72}\n\n{body}")
    assert check(tmp_path, "--since", "2000-01-01").returncode == 0
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", SUBJECT_72 + "B")
    failed = check(tmp_path, "--since", "2000-01-01")
    assert failed.returncode == 1
    assert SUBJECT_72 + "B" in failed.stderr


def test_commits_before_the_date_are_not_checked(tmp_path):
    git(tmp_path, "init", "-q")
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", "X" * 80, date="2001-01-01T00:00:00+00:00")
    assert check(tmp_path, "--since", "2002-01-01").returncode == 0


def test_outside_a_repository_there_is_nothing_to_check(tmp_path):
    assert check(tmp_path).returncode == 0


def test_the_hook_judges_the_subject_of_the_message_below_its_comments(tmp_path):
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text(f"# Please enter the commit message\n\n{SUBJECT_72}\n\n{'body ' * 40}\n", encoding="utf-8")
    assert check(tmp_path, "--message", str(message)).returncode == 0
    message.write_text(SUBJECT_72 + "B\n", encoding="utf-8")
    assert check(tmp_path, "--message", str(message)).returncode == 1
