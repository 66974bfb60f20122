"""The room service's order covers every room module: a module that `.importlinter`'s
`rooms-order` contract does not place is checked by nothing (import-linter ignores it), so each
module of games/rooms/ must be named in one of its tiers.
"""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def placed_modules() -> set[str]:
    contracts = configparser.ConfigParser()
    contracts.read(ROOT / ".importlinter")
    layers = contracts["importlinter:contract:rooms-order"]["layers"]
    return {name.strip() for line in layers.splitlines() for name in line.replace(":", "|").split("|") if name.strip()}


def test_every_room_module_has_its_tier():
    modules = {path.stem for path in (ROOT / "games" / "rooms").glob("*.py") if path.stem != "__init__"}
    assert len(modules) > 20
    assert modules - placed_modules() == set(), "place it in .importlinter's rooms-order (docs/ROOMS.md)"
    assert placed_modules() - modules == set(), "a tier names a module that is gone"
