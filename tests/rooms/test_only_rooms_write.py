"""Only the room service writes games and moves (docs/ARCHITECTURE.md): no product module outside
games/rooms/ saves, creates, updates or deletes a Game or a Move, nor names their tables in SQL.

A static scan of the product's source (players, games, leaderboards, server; migrations aside):
a write call (`.save()`, `.create()`, `.update()`, `.delete()`, `bulk_create`, …) whose receiver is
built from the Game or Move model, from a name assigned from them, or from a game's `game` /
`moves` attribute; and any string holding the tables' names (raw SQL). The scan is checked on
a sample of each kind of write, so that a scan that sees nothing cannot pass.
"""

import ast
from pathlib import Path

from games.models import Game, Move

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("players", "games", "leaderboards", "server")
ROOM_SERVICE = ROOT / "games" / "rooms"
WRITES = {"save", "create", "update", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
MODELS = {"Game", "Move"}
GAME_ATTRIBUTES = {"game", "moves"}
TABLES = {Game._meta.db_table, Move._meta.db_table}


def chain(node: ast.AST) -> list[ast.AST]:
    """The receiver chain of an expression, outermost first: `Game.objects.filter(x).first()` is
    the call, `….first`, the call of filter, `….filter`, `Game.objects`, `Game` (arguments aside)."""
    links = [node]
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
        links.append(node)
    return links


def root_name(node: ast.AST) -> str | None:
    base = chain(node)[-1]
    return base.id if isinstance(base, ast.Name) else None


def game_names(tree: ast.AST) -> set[str]:
    """The names assigned, anywhere in the module, from an expression rooted in Game or Move (or
    in such a name), to a fixpoint: `games = Game.objects.filter(…)`, `lobby = Game(…)`."""
    tainted = set(MODELS)
    assignments = [
        (target.id, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    grew = True
    while grew:
        grew = False
        for name, value in assignments:
            if name not in tainted and root_name(value) in tainted:
                tainted.add(name)
                grew = True
    return tainted


def on_a_game(receiver: ast.AST, tainted: set[str]) -> bool:
    """The receiver is a Game or Move, their manager or query, or a game's `game` / `moves`."""
    links = chain(receiver)
    return root_name(receiver) in tainted or any(
        isinstance(link, ast.Attribute) and link.attr in GAME_ATTRIBUTES for link in links
    )


def parsed(source: str) -> ast.Module:
    """`ast.parse`, tried again on CPython 3.11's spurious "AST constructor recursion depth
    mismatch" (a race on a shared counter, CPython gh-106905): the traceback module parses source
    lines too, and a server thread of an earlier test printing a traceback at the same moment trips
    the counter. The source is the same; a second parse succeeds."""
    for _attempt in range(4):
        try:
            return ast.parse(source)
        except SystemError:
            continue
    return ast.parse(source)


def writes_in(source: str) -> list[str]:
    """Each write of a Game or Move in `source`, as "line: code"."""
    tree = parsed(source)
    tainted = game_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            receiver = node.func.value
            if on_a_game(receiver, tainted):
                found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and any(t in node.value for t in TABLES):
            found.append(f"{node.lineno}: SQL naming {sorted(TABLES)}")
    return found


def product_files() -> list[Path]:
    files = [path for package in PRODUCT for path in (ROOT / package).rglob("*.py")]
    return [path for path in files if "migrations" not in path.parts and ROOM_SERVICE not in path.parents]


def test_no_product_module_outside_the_room_service_writes_games_or_moves():
    files = product_files()
    assert len(files) > 50  # the scan sees the product, not an empty folder
    found = {
        str(path.relative_to(ROOT)): writes for path in files if (writes := writes_in(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"write games and moves through games/rooms/ only: {found}"


def test_the_scan_sees_each_kind_of_write():
    samples = [
        "game = Game(mode='solo')\ngame.save()",
        "Game.objects.filter(pk=1).update(status='finished')",
        "Move.objects.bulk_create(rows)",
        "stale = Game.objects.filter(status='lobby')\nstale.delete()",
        "entry.game.save(update_fields=['status'])",
        "game.moves.create(seq=1)",
        f"cursor.execute('UPDATE {Game._meta.db_table} SET version = 2')",
    ]
    for sample in samples:
        assert writes_in(sample), sample
    assert not writes_in("entry = Entry.objects.get(pk=1)\nentry.save()")  # another app's own rows
    assert not writes_in("seen = set()\nseen.update(cards)")
    assert not writes_in("entry = Entry(game_id=game.id)\nentry.save()\ngame = Game.objects.get(pk=1)")
