"""games/bots is pure: it imports the standard library, itself and games.engine, nothing else
of the project (docs/ARCHITECTURE.md, the arrows that must never exist)."""

import ast
import sys
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "games" / "bots"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{path.name}: relative import"
            found.add(node.module)
    return found


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    if module in ("games.engine", "games.bots") or module.startswith(("games.engine.", "games.bots.")):
        return True
    return top != "games" and top in sys.stdlib_module_names


def test_bots_import_only_the_engine_and_the_standard_library():
    modules = sorted(BOTS.glob("*.py"))
    assert len(modules) >= 6
    for path in modules:
        bad = sorted(m for m in imported_modules(path) if not allowed(m))
        assert not bad, f"{path.name} imports {bad}"


def test_every_bot_module_has_a_docstring():
    for path in BOTS.glob("*.py"):
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
