"""One message table: the engine's codes and texts are the source, the server adds only its own
codes, and every engine text has its translation in each language's catalogue (en, de, bn).
Every refusal a player can meet says what to do next (issue 14): a next step per code, checked
for every code the engine can raise, in each language."""

import ast
import re
import shutil
import subprocess
import sys
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
    assert english == "It is not your turn: W is to play. Wait until it is your turn."
    assert translated != english and "W" in translated


def test_a_refusal_for_the_engines_reason_uses_the_engines_text():
    with translation.override("en"):
        assert messages.message_for("bad_seat", params={"seat": "X"}).startswith("'X' is not a seat (S, W, N or E). ")
        assert messages.message_for("game_over") == MESSAGES["game_over"] + " Start a new game from the home page."


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


def raised_codes() -> set[str]:
    """Every code the engine's source raises or returns as RuleError("code", ...)."""
    found = set()
    for path in (ROOT / "games" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError" and node.args:
                found.update(literal_codes(node.args[0], f"{path.name}:{node.lineno}"))
    return found


def literal_codes(expression: ast.expr, where: str) -> list[str]:
    """A literal code, or each side of a choice of literals ("already_drew" if ... else "must_draw_first")."""
    if isinstance(expression, ast.IfExp):
        return literal_codes(expression.body, where) + literal_codes(expression.orelse, where)
    assert isinstance(expression, ast.Constant) and isinstance(expression.value, str), f"{where}: not a literal code"
    return [expression.value]


# Params as the engine gives them, for the codes whose next step uses numbers.
SAMPLE_PARAMS: dict[str, dict[str, object]] = {
    "below_first_meld_minimum": {"minimum": 90, "points": 15, "missing": 75, "action": "meld"},
    "cannot_go_out": {"reason": "…", "clean": 0, "dirty": 1, "wild": 0, "partner_in_foot": True},
    "no_matching_pair": {"top": "9D"},
    "card_does_not_match": {"card": "AD", "top": "4C"},
}


def test_every_code_the_engine_raises_is_in_the_table_with_a_next_step():
    raised = raised_codes()
    assert len(raised) > 25  # the walk found the engine's refusals
    assert raised <= MESSAGES.keys(), raised - MESSAGES.keys()
    assert not MESSAGES.keys() - messages.NEXT_STEPS.keys(), "engine codes without a next step"


def next_step_texts() -> dict[str, str]:
    """code (or code:variant) -> the English next step."""
    texts = {code: str(text) for code, text in messages.NEXT_STEPS.items()}
    texts.update({f"{code}:{variant}": str(text) for (code, variant), text in messages.NEXT_STEP_VARIANTS.items()})
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_next_step_is_in_each_catalogue(language):
    entries = catalogue(language)
    with translation.override("en"):
        texts = next_step_texts()
    missing = [code for code, text in texts.items() if text not in entries or entries[text][1]]
    assert not missing, f"{language}: no next step for {missing}"
    if language != "en":
        for code, text in texts.items():
            assert entries[text][0], f"{language}: untranslated next step of {code}"
            assert set(re.findall(r"\{\w+\}", entries[text][0])) == set(re.findall(r"\{\w+\}", text)), code


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_shown_names_its_next_step(language, german_catalogue):
    """A text without its next step fails: each engine code's message ends with the step, in each language."""
    for code in MESSAGES:
        params = SAMPLE_PARAMS.get(code, {})
        shown = messages.render_error(code, language, params=params)
        with translation.override(language):
            step = messages.next_step_for(code, messages.shown_params(params))
        assert step and shown.endswith(" " + step), (language, code, shown)
        if language != "en":
            assert step != messages.render_error(code, "en", params=params).split(". ")[-1], (language, code)


def test_the_key_refusals_say_what_to_do_next():  # R37, R40, R49, R15
    take = {"minimum": 90, "points": 15, "missing": 75, "action": "take_pile"}
    assert messages.render_error("below_first_meld_minimum", "en", params=take) == (
        "Your first meld must be worth at least 90 points (this one is worth 15). You need 75 more points: "
        "set aside melds that reach 90 together with the top card, then press Take pile."
    )
    lay_down = dict(take, action="meld", points=70, missing=20)
    assert "You need 20 more points: set aside more melds with Set aside, then press Lay down." in (
        messages.render_error("below_first_meld_minimum", "en", params=lay_down)
    )
    assert messages.render_error("cannot_go_out", "en", params=SAMPLE_PARAMS["cannot_go_out"]).startswith(
        "You can go out only with 2 clean, 2 dirty and 1 wild pile: you still need 1 dirty pile. "
    )
    several = dict(SAMPLE_PARAMS["cannot_go_out"], clean=1, dirty=2, wild=1)
    assert "you still need 1 clean pile, 2 dirty piles and 1 wild pile." in (
        messages.render_error("cannot_go_out", "en", params=several)
    )
    partner = dict(SAMPLE_PARAMS["cannot_go_out"], partner_in_foot=False)
    assert messages.render_error("cannot_go_out", "en", params=partner).startswith(
        "You can go out only once your partner has picked up their foot."
    )
    assert "select fewer wild cards" in messages.render_error("too_many_wild", "en")
    assert "Set aside" in messages.render_error("mixed_ranks", "en")
    # cards as the table shows them, not as the notation writes them
    assert messages.render_error("card_does_not_match", "en", params=SAMPLE_PARAMS["card_does_not_match"]).startswith(
        "A♦ cannot go into the meld with the top card 4♣."
    )


@pytest.mark.parametrize("language", ["de", "bn"])
def test_the_going_out_refusal_is_translated_with_its_numbers(language, german_catalogue):  # R49b
    shown = messages.render_error("cannot_go_out", language, params=SAMPLE_PARAMS["cannot_go_out"])
    english = messages.render_error("cannot_go_out", "en", params=SAMPLE_PARAMS["cannot_go_out"])
    one = {"de": "1", "bn": "১"}[language]  # Bengali in Bengali digits, as the page writes numbers
    assert shown != english and one in shown and "…" not in shown  # the English reason is not shown


def test_a_bengali_refusal_writes_its_numbers_in_bengali_digits():  # R40, R49b
    going_out = messages.render_error("cannot_go_out", "bn", params=SAMPLE_PARAMS["cannot_go_out"])
    assert "১টি ডার্টি পাইল" in going_out, going_out
    short = messages.render_error("below_first_meld_minimum", "bn", params=SAMPLE_PARAMS["below_first_meld_minimum"])
    assert "৭৫" in short and not re.search(r"[0-9]", going_out + short), short
    german = messages.render_error("below_first_meld_minimum", "de", params=SAMPLE_PARAMS["below_first_meld_minimum"])
    assert "75" in german  # other languages keep their digits
    # card params keep their names as on the table; a flag stays a flag
    assert messages.shown_params({"card": "9D", "partner_in_foot": True}) == {"card": "9♦", "partner_in_foot": True}


def test_makemessages_comments_out_no_msgid(tmp_path):
    """`makemessages -l de -l bn` keeps every msgid of the django catalogues. One it would comment
    out (#~) is a text no Python file or template says (a client text belongs in djangojs.po), or
    one marked in a way it cannot find. Run on a copy of the apps, the templates and locale/."""
    apps = [path.parent.name for path in ROOT.glob("*/apps.py")]
    for part in [*apps, "server", "templates", "locale"]:
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "-l", "bn", "-v", "0"], cwd=tmp_path, check=True
    )
    obsolete = {
        language: [
            line
            for line in (tmp_path / "locale" / language / "LC_MESSAGES" / "django.po").read_text("utf-8").splitlines()
            if line.startswith("#~ msgid")
        ]
        for language in ("de", "bn")
    }
    assert obsolete == {"de": [], "bn": []}
