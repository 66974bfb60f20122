"""Nothing in the project refers to a document outside it (issue 23, item 1).

The rules and the design once lived beside the repository (`../shared/RULES.md`, `DESIGN.md`);
they are now `docs/RULES.md` and the other files of `docs/`. Every tracked text file is read: a
path into the shared folder fails, and so does every `*.md` it names that the repository does not
hold — looked up from the root, from the naming file's folder and in `docs/` (where a bare
`VIEW.md` is meant).
"""

import re
from pathlib import Path

from tests.harness.project_files import ROOT, project_texts

OUTSIDE = re.compile(r"\.\./shared\b|/work/shared\b|\bshared/(?:RULES|DESIGN|STYLE)\.md|\bshared/product/")
DOCUMENT = re.compile(r"(?<![\w./-])((?:\.\.?/)*(?:[\w-]+/)*[\w-]+\.md)\b")
THIS_FILE = Path(__file__).resolve().relative_to(ROOT)


def outside_references(path: Path, text: str, root: Path = ROOT) -> list[str]:
    """The references of `text` (the file at `path`) to something the project does not hold, sorted."""
    found = {match.group(0) for match in OUTSIDE.finditer(text)}
    for match in DOCUMENT.finditer(text):
        name = match.group(1)
        places = (root / name, root / path.parent / name, root / "docs" / name)
        if not any(_held(place, root) for place in places):
            found.add(name)
    return sorted(found)


def _held(place: Path, root: Path) -> bool:
    """Whether the project itself holds `place`: a `../` that climbs out of the checkout never counts,
    even where a folder beside it happens to hold that file (as CI's does)."""
    resolved = place.resolve()
    return resolved.is_relative_to(root.resolve()) and resolved.is_file()


def test_no_file_refers_outside_the_project():
    offenders = {
        str(path): refs
        for path, text in project_texts()
        if path != THIS_FILE and (refs := outside_references(path, text))
    }
    assert not offenders, f"references to files the project does not hold: {offenders}"


def test_the_check_catches_the_old_references():
    text = (
        "see ../shared/RULES.md and shared/DESIGN.md\n"
        "# the surface: DESIGN.md, the rules: RULES.md, docs/VIEW.md, ENGINE.md, docs/NOPE.md\n"
    )
    found = outside_references(Path("games/engine/example.py"), text)
    assert found == ["../shared", "../shared/RULES.md", "DESIGN.md", "docs/NOPE.md", "shared/DESIGN.md"]
