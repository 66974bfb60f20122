"""Commit subjects stay under 72 characters, the details in the body (issue 17, "Habits").

Two uses:
- `python scripts/check_commit_subjects.py` (a step of .ci/run): checks the subjects of the commits
  made after 2f7ef88 (2 Dec 2026, 08:17 UTC) in the current directory's repository and exits 1
  listing any that run longer. Earlier history on main is not rewritten (thirteen subjects of that
  day run to 73–80 characters), nor is a commit that landed long before the check caught it
  (LANDED_LONG). A checkout without that history (an export, a shallow clone) has no commits after
  it to check, which is correct: the subjects checked are those it has.
- `python scripts/check_commit_subjects.py --message FILE` (the commit-msg hook of
  .pre-commit-config.yaml): checks the subject of the message being committed.
"""

import argparse
import subprocess
import sys
from pathlib import Path

SINCE = "2026-12-02T08:17:38+00:00"  # 2f7ef88's commit time
LIMIT = 72
# Landed on main before the check caught them; main is not rewritten, so they are named here.
LANDED_LONG = {
    "994db29439d69d5c3a8515e8a7752f2322dd6542",  # 74 characters, 3 Dec 2026
    # 5 Dec 2026: two commits whose body had no blank line after the subject, so git reads the
    # whole first paragraph as the subject.
    "4b9396035b5fc2f76f4b8994f58f3b3c9538fca5",
    "5d4f9d29d666e61e4772f69861dc78b1c7f19aae",
    "937a233f3c14101f78bf5ae8dc9dd692778d402e",  # 75 characters, 5 Dec 2026 (landed before the check was run)
}


def subjects_since(since: str, repo: Path) -> list[str]:
    """The subjects of the commits after `since` in `repo`, less LANDED_LONG; none outside git."""
    found = subprocess.run(
        ["git", "log", f"--since={since}", "--format=%H %ct %s"], cwd=repo, capture_output=True, text=True, check=False
    )
    if found.returncode != 0:  # not a git checkout: no history to check
        return []
    commits = [line.split(" ", 2) for line in found.stdout.splitlines() if line.count(" ") >= 2]
    return [subject for commit, _time, subject in commits if commit not in LANDED_LONG]


def subject_of_message(text: str) -> str:
    """The subject git will record: the first line that is neither blank nor a # comment."""
    lines = (line.strip() for line in text.splitlines())
    return next((line for line in lines if line and not line.startswith("#")), "")


def too_long(subjects: list[str]) -> list[str]:
    return [subject for subject in subjects if len(subject) > LIMIT]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=f"Refuse commit subjects over {LIMIT} characters.")
    parser.add_argument("--message", type=Path, help="a commit message file (the commit-msg hook)")
    parser.add_argument("--since", default=SINCE, help="check the commits after this date (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.message is not None:
        subjects = [subject_of_message(args.message.read_text(encoding="utf-8"))]
    else:
        subjects = subjects_since(args.since, Path.cwd())
    long = too_long(subjects)
    for subject in long:
        print(f"commit subject over {LIMIT} characters ({len(subject)}): {subject}", file=sys.stderr)
    if long:
        print("Put the details in the body, below a blank line.", file=sys.stderr)
    return 1 if long else 0


if __name__ == "__main__":
    sys.exit(main())
