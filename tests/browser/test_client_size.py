"""The browser client stays small, page by page: what a page makes the browser fetch — its
stylesheets, its module scripts and every module they import, each gzip-compressed as served —
stays under a budget (docs/PERFORMANCE.md, "The browser client", says why these figures).

The pages are read from the templates (a page extends base.html, which every page loads), and the
imports from the modules themselves, so a new module or page is counted without editing this test.
A module imported on demand (`import("./x.js")`: the lesson's prompt, a daily's end, the recap,
friends away, the lobby) is fetched only by the games that need it, after the page works: it is not
part of the page's budget, but it must exist, stay small, and counts in the whole client's.
"""

import gzip
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
BASE = ROOT / "templates" / "base.html"
PAGES = {
    "table": ROOT / "templates" / "table.html",
    "home": ROOT / "templates" / "home.html",
    "join": ROOT / "templates" / "join.html",
    "replay": ROOT / "templates" / "watch.html",
}
TABLE_BUDGET = 60 * 1024  # the table, the whole game client: issue #13 gives it 60 KB
PAGE_BUDGET = 40 * 1024  # any other page (the replay page shares the table's renderer)
# Everything under static/, fetched or not: 72 KB until issue 29, 80 KB since. The pages are what
# players fetch, each under its budget; the folder also holds modules fetched on demand and each
# page's own (docs/PERFORMANCE.md, "Client size").
WHOLE_BUDGET = 80 * 1024

STATIC_REF = re.compile(r"""\{% static ['"]([^'"]+\.(?:js|css))['"] %\}""")
IMPORT = re.compile(r"""(?:^|;|\n)\s*(?:import|export)\b(?!\s*\()[^"';()]*?(?:from\s*)?["'](\./[\w.-]+\.js)["']""")
BLOCK = re.compile(r"\{% block (\w+) %\}(.*?)\{% endblock %\}", re.S)
ON_DEMAND = re.compile(r"""\bimport\(\s*["'](\./[\w.-]+\.js)["']\s*\)""")
ON_DEMAND_BUDGET = 4 * 1024  # each module fetched on demand


def compressed(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def imports_of(module: Path) -> set[Path]:
    return {(module.parent / name).resolve() for name in IMPORT.findall(module.read_text(encoding="utf-8"))}


def without_overridden_blocks(base: str, page: str) -> str:
    """base.html as `page` renders it: a block the page defines replaces base.html's (its files too)."""
    overridden = {name for name, _ in BLOCK.findall(page)}
    return BLOCK.sub(lambda block: "" if block.group(1) in overridden else block.group(0), base)


def fetched_by(template: Path) -> set[Path]:
    """The static files a page of `template` loads: its own and base.html's, and their imports."""
    page = template.read_text()
    texts = (without_overridden_blocks(BASE.read_text(), page), page)
    found = {(STATIC / name).resolve() for text in texts for name in STATIC_REF.findall(text)}
    waiting = [path for path in found if path.suffix == ".js"]
    while waiting:
        for imported in imports_of(waiting.pop()) - found:
            found.add(imported)
            waiting.append(imported)
    return found


def test_the_import_reader_follows_every_kind_of_import(tmp_path):
    (tmp_path / "a.js").write_text('import { x } from "./b.js";\nimport "./c.js";\nexport { y } from "./d.js";\n')
    (tmp_path / "e.js").write_text(
        'import("./f.js").then(() => 1);\nconst g = await import("./g.js");\n'
        'export function f() {\n  x = x || import("./h.js");\n}\n'
    )
    assert {p.name for p in imports_of(tmp_path / "a.js")} == {"b.js", "c.js", "d.js"}
    assert not imports_of(tmp_path / "e.js")  # on demand: not fetched with the page


def test_modules_imported_on_demand_exist_and_stay_small():
    found = {(m.parent / name).resolve() for m in STATIC.rglob("*.js") for name in ON_DEMAND.findall(m.read_text())}
    assert {p.name for p in found} >= {"lesson.js", "daily_end.js", "recap.js", "away.js", "lobby.js"}
    for module in found:
        assert module.is_file(), module
        assert compressed(module) < ON_DEMAND_BUDGET, module


def test_a_page_that_defines_a_block_does_not_fetch_base_html_s_files_in_it():
    base = "<link {% block page_css %}{% static 'foot/pages.css' %}{% endblock %}>{% block head %}{% endblock %}"
    assert "pages.css" not in without_overridden_blocks(base, "{% block page_css %}{% endblock %}")
    assert "pages.css" in without_overridden_blocks(base, "{% block head %}x{% endblock %}")
    assert STATIC / "foot" / "pages.css" in fetched_by(PAGES["home"])
    assert STATIC / "foot" / "pages.css" not in fetched_by(PAGES["table"])


def test_every_page_fetches_files_that_exist():
    for name, template in PAGES.items():
        files = fetched_by(template)
        assert any(p.suffix == ".js" for p in files), name
        missing = [str(p) for p in files if not p.is_file()]
        assert not missing, f"{name} page refers to {missing}"


def test_each_page_stays_under_its_budget():
    for name, template in PAGES.items():
        total = sum(compressed(p) for p in fetched_by(template))
        budget = TABLE_BUDGET if name == "table" else PAGE_BUDGET
        print(f"{name}: {len(fetched_by(template))} files, {total} bytes gzipped (budget {budget})")
        assert total < budget, f"the {name} page fetches {total} bytes compressed, budget {budget}"


def test_the_whole_client_stays_under_its_budget():
    files = sorted(p for p in STATIC.rglob("*") if p.suffix in {".js", ".css"})
    total = sum(compressed(p) for p in files)
    print(f"client: {len(files)} files, {total} bytes gzipped")
    assert total < WHOLE_BUDGET, f"{total} bytes compressed, budget {WHOLE_BUDGET}"
