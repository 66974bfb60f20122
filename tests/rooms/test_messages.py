"""One message table: the engine's codes and texts are the source, the server adds only its own
codes, and every engine text has its translation in each language's catalogue (en, de, bn)."""

import ast
import re
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from games import messages
from games.engine.errors import MESSAGES

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de", "bn")


def catalogue(language: str) -> dict[str, tuple[str, bool]]:
    """msgid -> (msgstr, fuzzy) of locale/<language>/LC_MESSAGES/django.po (obsolete entries left out)."""
    return po_entries((ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))


def po_entries(text: str) -> dict[str, tuple[str, bool]]:
    """msgid -> (msgstr, fuzzy) of a .po or .pot text."""
    entries, fuzzy, current, field = {}, False, {}, None
    for line in text.splitlines() + [""]:
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith(("msgid ", "msgstr ")):
            field, _, value = line.partition(" ")
            current[field] = ast.literal_eval(value)
        elif line.startswith('"') and field:
            current[field] += ast.literal_eval(line)
        elif not line.strip():
            if "msgid" in current and "msgstr" in current:
                entries[current["msgid"]] = (current["msgstr"], fuzzy)
            fuzzy, current, field = False, {}, None
    return entries


def test_no_server_code_shadows_an_engine_code():
    assert not messages.SERVER_MESSAGES.keys() & MESSAGES.keys()
    with translation.override("en"):
        assert {code: str(text) for code, text in messages.ENGINE_MESSAGES.items()} == MESSAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_text_is_in_each_catalogue(language):
    entries = catalogue(language)
    missing = [code for code, text in MESSAGES.items() if text not in entries]
    assert not missing, f"{language}: no msgid for {missing}"
    fuzzy = [code for code, text in MESSAGES.items() if entries[text][1]]
    assert not fuzzy, f"{language}: fuzzy {fuzzy}"
    if language != "en":  # English msgstr may stay empty: the msgid is the text
        untranslated = [code for code, text in MESSAGES.items() if not entries[text][0]]
        assert not untranslated, f"{language}: untranslated {untranslated}"
        for code, text in MESSAGES.items():  # the same placeholders, so params format in every language
            assert set(re.findall(r"\{\w+\}", entries[text][0])) == set(re.findall(r"\{\w+\}", text)), code


@pytest.mark.parametrize("language", ["de", "bn"])
def test_an_engine_refusal_reads_in_the_players_language(language, german_catalogue):
    english = messages.render_error("not_your_turn", "en", params={"turn": "W"})
    translated = messages.render_error("not_your_turn", language, params={"turn": "W"})
    assert english == "It is not your turn: W is to play."
    assert translated != english and "W" in translated


def test_a_refusal_for_the_engines_reason_uses_the_engines_text():
    with translation.override("en"):
        assert messages.message_for("bad_seat", params={"seat": "X"}) == "'X' is not a seat (S, W, N or E)."
        assert messages.message_for("game_over") == MESSAGES["game_over"]


def test_makemessages_finds_every_engine_text(tmp_path):
    """makemessages keeps only the msgids xgettext extracts; an engine text it cannot find would be
    commented out of every catalogue by the next run. Its xgettext call for Python files, with
    Django's keywords (django/core/management/commands/makemessages.py), over the engine's texts:"""
    pot = tmp_path / "engine.pot"
    subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            "--keyword=gettext_noop",
            "--keyword=gettext_lazy",
            "--keyword=ngettext_lazy:1,2",
            "--keyword=pgettext:1c,2",
            "--keyword=npgettext:1c,2,3",
            "--keyword=pgettext_lazy:1c,2",
            "--keyword=npgettext_lazy:1c,2,3",
            f"--output={pot}",
            "games/engine/errors.py",
        ],
        cwd=ROOT,
        check=True,
    )
    extracted = po_entries(pot.read_text(encoding="utf-8"))
    missing = [code for code, text in MESSAGES.items() if text not in extracted]
    assert not missing, f"not marked with gettext_noop in games/engine/errors.py: {missing}"
