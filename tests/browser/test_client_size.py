"""The browser client stays small: all of static/ (JS + CSS) under 60 KB gzip-compressed."""

import gzip
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
LIMIT = 60 * 1024


def test_js_and_css_under_60_kb_compressed():
    files = sorted(p for p in STATIC.rglob("*") if p.suffix in {".js", ".css"})
    assert files, "no client files found"
    total = sum(len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in files)
    print(f"client: {len(files)} files, {total} bytes gzipped")
    assert total < LIMIT, f"{total} bytes compressed, limit {LIMIT}"
