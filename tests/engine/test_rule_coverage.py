"""The rulebook and the suite agree: every rule and worked example numbered in docs/RULES.md is
cited by at least one test comment, and every rule or example number cited anywhere in the
project (code, tests, docs, templates, catalogues) is one that docs/RULES.md holds.

A rule is numbered in docs/RULES.md by a list item that opens with its bold number (`- **R29**`,
`- **E7 Taking the discard pile**`). A citation is `R29`, `E7`, or a clause of a rule, `R29b`,
which needs both the rule and its clause `(b)`. A test cites a rule in a comment (`# R29`).
"""

import re
from pathlib import Path

from tests.harness.project_files import ROOT, project_texts

RULES_FILE = ROOT / "docs" / "RULES.md"
THIS_FILE = Path(__file__).resolve().relative_to(ROOT)

NUMBERED = re.compile(r"^- \*\*([RE]\d+[a-z]?)\b", re.MULTILINE)
# Not a citation: a hex escape (%E2), a lint code (# noqa: E402) or part of a longer word.
CITATION = re.compile(r"(?<![\w%#/-])([RE]\d+)([a-z]?)(?![\w])")
LINT_CODES = re.compile(r"noqa[^\n]*")
CLAUSE = re.compile(r"\(([a-z])\)")
COMMENT = re.compile(r"#[^\n]*")


def numbered_rules(rules_text: str) -> dict[str, set[str]]:
    """Each rule or example numbered in `rules_text`, with the clause letters its text names."""
    starts = list(NUMBERED.finditer(rules_text))
    entries = {}
    for here, following in zip(starts, [*starts[1:], None], strict=True):
        end = following.start() if following else len(rules_text)
        body = rules_text[here.end() : end].split("\n## ", 1)[0]
        entries[here.group(1)] = set(CLAUSE.findall(body))
    return entries


def citations(text: str) -> set[str]:
    """The rule and example numbers `text` cites, clause letters kept (`R29b`, `R55a`)."""
    return {number + letter for number, letter in CITATION.findall(LINT_CODES.sub("", text))}


def cited_rule(citation: str, rules: dict[str, set[str]]) -> str | None:
    """The rule a citation names (`R29b` -> `R29`, `R55a` -> `R55a`), or None if it names none."""
    if citation in rules:
        return citation
    clause = re.fullmatch(r"([RE]\d+)([a-z])", citation)
    if clause and clause.group(2) in rules.get(clause.group(1), set()):
        return clause.group(1)
    return None


def uncited(rules: dict[str, set[str]], test_comments: str) -> list[str]:
    """The rules and examples no test comment cites, in the order of the rulebook."""
    cited = {cited_rule(citation, rules) for citation in citations(test_comments)}
    return [rule for rule in rules if rule not in cited]


def unknown(rules: dict[str, set[str]], text: str) -> list[str]:
    """The numbers `text` cites that the rulebook does not hold."""
    return sorted(citation for citation in citations(text) if cited_rule(citation, rules) is None)


def rulebook() -> dict[str, set[str]]:
    return numbered_rules(RULES_FILE.read_text())


def comments_of_tests() -> str:
    texts = (text for path, text in project_texts() if path.parts[0] == "tests" and path.name.startswith("test_"))
    return "\n".join("\n".join(COMMENT.findall(text)) for text in texts)


def test_the_rulebook_keeps_its_numbers():
    # Code and tests cite these numbers: they never change (a new rule takes a new number).
    expected = [f"R{n}" for n in range(1, 60)] + ["R55a"] + [f"E{n}" for n in range(1, 17)]
    assert sorted(rulebook()) == sorted(expected)


def test_every_rule_and_example_is_cited_by_a_test():
    missing = uncited(rulebook(), comments_of_tests())
    assert not missing, f"rules of docs/RULES.md without a test: {missing}"


def test_every_cited_number_is_in_the_rulebook():
    rules = rulebook()
    strays = {
        str(path): found for path, text in project_texts() if path != THIS_FILE and (found := unknown(rules, text))
    }
    assert not strays, f"numbers docs/RULES.md does not hold: {strays}"


FAKE_RULEBOOK = """# Rules
- **R1** A rule with clauses: (a) one, (b) two.
- **R2** Another rule.
- **R2a** A rule added between two others.

## Examples
- **E1 A case** (R1, R2): and (c) is not R1's clause.
"""


def test_the_checker_reads_numbers_and_clauses():
    assert numbered_rules(FAKE_RULEBOOK) == {"R1": {"a", "b"}, "R2": set(), "R2a": set(), "E1": {"c"}}


def test_the_checker_finds_a_rule_no_test_cites():
    rules = numbered_rules(FAKE_RULEBOOK)
    assert uncited(rules, "# R1b, E1\n# R2a") == ["R2"]
    assert uncited(rules, "# R1 R2 R2a E1") == []


def test_the_checker_finds_a_cited_number_the_rulebook_lacks():
    rules = numbered_rules(FAKE_RULEBOOK)
    text = "x = 1  # R3, R1c and E2; R1a, R2a and E1 exist\nimport y  # noqa: E402\nhref='%E2%99'\n"
    assert unknown(rules, text) == ["E2", "R1c", "R3"]
