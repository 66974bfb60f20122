"""The suite itself: every rule R1–R59 (and R55a) and every example E1–E16 of RULES.md is
cited by at least one test comment, so a rule without a test shows up here."""

import re
from pathlib import Path

HERE = Path(__file__).parent
RULES = [f"R{n}" for n in range(1, 60)] + ["R55a"]
EXAMPLES = [f"E{n}" for n in range(1, 17)]


def cited():
    text = "\n".join(p.read_text() for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    comments = " ".join(re.findall(r"#[^\n]*", text))
    return set(re.findall(r"\b([RE]\d+a?)(?=[a-z(\s,.:;-]|$)", comments))


def test_every_rule_is_cited_by_a_test():
    missing = [r for r in RULES if r not in cited()]
    assert not missing, f"rules without a test: {missing}"


def test_every_example_is_cited_by_a_test():
    missing = [e for e in EXAMPLES if e not in cited()]
    assert not missing, f"examples without a test: {missing}"
