"""Every reason code a bot can give has its words in the client (static/foot/reasons.js), and
every one of those texts is translated into German and Bengali (locale/*/djangojs.po)."""

import re
from pathlib import Path

import pytest

from games.bots.reasons import CODES

ROOT = Path(__file__).resolve().parents[2]
WORDS = (ROOT / "static" / "foot" / "reasons.js").read_text()


def js_texts() -> list[str]:
    """The msgids of reasons.js: the first string of each (n)pgettext("reason", …) and gettext call."""
    texts = re.findall(r'pgettext\("reason",\s*"((?:[^"\\]|\\.)*)"', WORDS)
    return texts + re.findall(r'[^p]gettext\("((?:[^"\\]|\\.)*)"', WORDS)


def translated(language: str) -> dict[str, str]:
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "djangojs.po").read_text()
    found = {}
    for block in text.split("\n\n"):
        msgid = re.search(r'^msgid "((?:[^"\\]|\\.)*)"', block, re.M)
        msgstr = re.search(r'^msgstr(?:\[0\])? "((?:[^"\\]|\\.)*)"', block, re.M)
        if msgid and msgstr:
            found[msgid.group(1)] = msgstr.group(1)
    return found


def test_every_code_has_its_words_in_the_client():
    worded = set(re.findall(r"^  (\w+): \(", WORDS, re.M))
    assert worded == set(CODES)


@pytest.mark.parametrize("language", ["de", "bn"])
def test_every_reason_text_is_translated(language):
    catalogue = translated(language)
    texts = js_texts()
    assert len(texts) >= len(CODES)
    for text in texts:
        assert catalogue.get(text), f"{text!r} has no {language} text"
        placeholders = set(re.findall(r"%\((\w+)\)s", text))
        assert placeholders == set(re.findall(r"%\((\w+)\)s", catalogue[text])), text
