"""The home, rules and invite pages in a real browser, and the client's JSON-patch applier
checked against Python's jsonpatch (the library the room service diffs views with)."""

import random

import jsonpatch
import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser


def test_home_offers_the_three_ways_to_play(site, page):
    page.goto(site.url + "/")
    for name in ("Play today’s game", "Start a new game", "Open a table"):
        assert page.get_by_role("button", name=name).is_visible()
    assert page.get_by_role("radio", name="Normal").is_checked()
    assert page.get_by_role("link", name="Leaderboard").first.get_attribute("href") == "/leaderboard/"
    assert page.get_by_role("link", name="Rules and tips").get_attribute("href") == "/rules/"
    assert page.foot_errors == []


def test_rules_page_covers_rules_controls_and_tips(site, page):
    page.goto(site.url + "/rules/")
    for heading in (
        "Melds and piles",
        "Your turn",
        "Threes",
        "The first meld",
        "The foot and going out",
        "Scoring",
        "Controls",
        "Tips",
    ):
        assert page.get_by_role("heading", name=heading).is_visible()
    text = page.locator("main").inner_text()
    assert "50 points in deal 1, 90 in deal 2, 120 in deal 3 and 150 in deal 4" in text  # R37
    assert "two clean piles, two dirty piles and one wild pile" in text  # R49
    assert "Set aside" in text and "Lay down" in text  # R42


def test_rules_fit_a_phone_without_sideways_scrolling(site, phone):
    phone.goto(site.url + "/rules/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_language_switch_turns_the_site_german(site, page):
    page.goto(site.url + "/")
    page.get_by_label("Language").select_option("de")
    page.wait_for_load_state("load")
    page.get_by_role("heading", name="Neues Spiel").wait_for()
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("heading", name="Täglich").is_visible()


def test_unknown_invite_is_not_found(site, page):
    answer = page.goto(site.url + "/join/NOSUCH/")
    assert answer.status == 404


def random_json(rng, depth=0):
    kind = rng.choice(["int", "str", "list", "dict", "bool", "null"] if depth < 3 else ["int", "str"])
    if kind == "int":
        return rng.randint(-5, 300)
    if kind == "str":
        return rng.choice(["9C", "JK", "a/b", "t~1", "", "Queen"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {
        rng.choice(["0", "1", "hand", "a/b", "m~n", "NS", "EW"]): random_json(rng, depth + 1)
        for _ in range(rng.randint(0, 5))
    }


def mutate(rng, value, depth=0):
    if isinstance(value, dict) and value and depth < 4:
        copy = dict(value)
        key = rng.choice(list(copy))
        action = rng.random()
        if action < 0.3:
            del copy[key]
        elif action < 0.6:
            copy[key] = mutate(rng, copy[key], depth + 1)
        else:
            copy[rng.choice(["x", "9C", "~", "/"])] = random_json(rng, depth + 1)
        return copy
    if isinstance(value, list) and depth < 4:
        items = list(value)
        action = rng.random()
        if items and action < 0.3:
            items.pop(rng.randrange(len(items)))
        elif items and action < 0.6:
            index = rng.randrange(len(items))
            items[index] = mutate(rng, items[index], depth + 1)
        else:
            items.insert(rng.randint(0, len(items)), random_json(rng, depth + 1))
            if rng.random() < 0.5:
                items.append(random_json(rng, depth + 1))
        return items
    return random_json(rng, depth)


APPLY_ALL = """async (cases) => {
  const { applyPatch } = await import('/static/foot/patch.js');
  return cases.map(([before, ops]) => {
    try { return { ok: applyPatch(before, ops), before }; } catch (e) { return { error: String(e) }; }
  });
}"""


def test_js_patch_applier_matches_python_jsonpatch(site, page):
    page.goto(site.url + "/rules/")
    rng = random.Random(6902)
    cases = []
    for _ in range(300):
        before = random_json(rng)
        after = before
        for _step in range(rng.randint(1, 4)):
            after = mutate(rng, after)
        cases.append((before, after, jsonpatch.make_patch(before, after).patch))
    results = page.evaluate(APPLY_ALL, [[before, ops] for before, _after, ops in cases])
    for (before, after, ops), result in zip(cases, results, strict=True):
        assert result.get("error") is None, (before, ops, result)
        assert result["ok"] == after, (before, ops)
        assert result["before"] == before, "applyPatch must not change its input"


def test_js_patch_applier_rfc6902_cases(site, page):
    page.goto(site.url + "/rules/")
    cases = [
        ({"discard": ["9C"]}, [{"op": "add", "path": "/discard/-", "value": "3S"}], {"discard": ["9C", "3S"]}),
        ({"hand": {"4H": 2}}, [{"op": "remove", "path": "/hand/4H"}], {"hand": {}}),
        (
            {"a/b": 1, "m~n": 2},
            [{"op": "replace", "path": "/a~1b", "value": 3}, {"op": "remove", "path": "/m~0n"}],
            {"a/b": 3},
        ),
        ([1, 2, 3], [{"op": "add", "path": "/1", "value": 9}, {"op": "remove", "path": "/0"}], [9, 2, 3]),
        ({"x": {"y": 1}}, [{"op": "move", "from": "/x/y", "path": "/z"}], {"x": {}, "z": 1}),
        ({"x": [1]}, [{"op": "copy", "from": "/x", "path": "/y"}], {"x": [1], "y": [1]}),
        ({"v": 1}, [{"op": "replace", "path": "", "value": {"w": 2}}], {"w": 2}),
    ]
    results = page.evaluate(APPLY_ALL, [[before, ops] for before, ops, _after in cases])
    assert [result.get("ok") for result in results] == [after for _before, _ops, after in cases]
    refused = page.evaluate(
        APPLY_ALL,
        [
            [{"a": 1}, [{"op": "remove", "path": "/b"}]],
            [[1], [{"op": "add", "path": "/5", "value": 0}]],
            [{"a": 1}, [{"op": "test", "path": "/a", "value": 2}]],
        ],
    )
    assert all("error" in result for result in refused)


HAND_ORDER = """async (codes) => {
  const cards = await import('/static/foot/cards.js');
  const counts = {};
  for (const code of codes) counts[code] = (counts[code] || 0) + 1;
  const sorted = cards.expandCounts(counts);
  return { sorted, groups: sorted.map(cards.handGroup), names: sorted.map(cards.cardName) };
}"""


def test_hand_is_sorted_by_rank_with_wild_cards_and_threes_apart(site, page):
    page.goto(site.url + "/rules/")
    result = page.evaluate(HAND_ORDER, ["3S", "AH", "2C", "4D", "JK", "TS", "4C", "KH", "2H", "3C", "QD"])
    assert result["sorted"] == ["4C", "4D", "TS", "QD", "KH", "AH", "2C", "2H", "JK", "3C", "3S"]  # 4..A, R3
    assert result["groups"] == ["natural"] * 6 + ["wild"] * 3 + ["three"] * 2
    assert result["names"][:4] == ["Four of clubs", "Four of diamonds", "Ten of spades", "Queen of diamonds"]
    assert "Joker" in result["names"]


def test_card_names_in_german_and_bengali(site, make_page):
    for locale, queen_of_hearts, joker in (("de-DE", "Herz-Dame", "Joker"), ("bn-BD", "হরতনের বিবি", "জোকার")):
        page = make_page(locale=locale)
        page.goto(site.url + "/rules/")
        page.add_script_tag(url="/jsi18n/")
        names = page.evaluate(
            "async () => { const c = await import('/static/foot/cards.js');"
            " return [c.cardName('QH'), c.cardName('JK')]; }"
        )
        assert names == [queen_of_hearts, joker]
