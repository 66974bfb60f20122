"""The project's own text files, for the checks that read the whole repository.

The tracked files when this is a git checkout (what a fresh clone holds); otherwise (an export)
every file under the root except the virtualenv, the npm packages and the caches. Binary files
(screenshots, compiled catalogues) are left out: they hold no references a reader follows.
"""

import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_THE_PROJECT = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def project_paths(root: Path = ROOT) -> list[Path]:
    """Every file of the project, relative to `root`."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=False)
    if listed.returncode == 0:
        return [Path(name) for name in listed.stdout.decode().split("\0") if name]
    return [
        path.relative_to(root)
        for path in root.rglob("*")
        if path.is_file() and not NOT_THE_PROJECT.intersection(path.relative_to(root).parts)
    ]


def project_texts(root: Path = ROOT) -> Iterator[tuple[Path, str]]:
    """(path relative to `root`, text) of every text file of the project."""
    for path in project_paths(root):
        full = root / path
        if not full.is_file():  # deleted in the work tree, not yet committed
            continue
        content = full.read_bytes()
        if b"\0" in content:
            continue
        yield path, content.decode("utf-8", errors="replace")
