"""The named house-rule presets the home page offers, and a game's rules in words.

A preset is only a name for a `rules` object of POST /api/games (docs/RULES.md §17); the engine
checks every value (`engine.Rules.from_json`), so a preset can never make a game the API would
refuse (tests/rooms/test_house_rules_pages.py). `rules_in_words` says a game's rules as the
table shows them on demand: only what differs from the standard rules.
"""

import json
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import engine

# key -> (name, rules); "custom" is the home page's own: the player's values for every key.
PRESETS = {
    "standard": (_("Standard"), {}),
    "quick": (_("Quick game: one deal"), {"deals": 1}),
    "two_deals": (_("Two deals"), {"deals": 2}),
    "family": (
        _("Family table: 11 cards, one clean and one dirty pile to go out"),
        {"hand_size": 11, "clean_piles": 1, "dirty_piles": 1, "wild_piles": 0},
    ),
    "whole_pile": (_("Whole pile: take it all, red threes 300"), {"pile_take": 270, "red_three_value": 300}),
}


def presets_for_page() -> list[dict[str, Any]]:
    """The presets as the home page's select lists them, each with its rules for the API."""
    return [
        {"key": key, "name": str(name), "rules": rules, "rules_json": json.dumps(rules)}
        for key, (name, rules) in PRESETS.items()
    ]


def rules_in_words(rules: engine.Rules, announce_undo: bool = True) -> list[str]:
    """What differs from the standard rules, one phrase each, in the active language; [] if none.
    `announce_undo` False leaves out undo (V7), for a solo game: its player chose it, and the
    table's Undo button shows it."""
    standard = engine.STANDARD
    said = []
    if rules.deals != standard.deals:
        said.append(ngettext("%(n)s deal", "%(n)s deals", rules.deals) % {"n": rules.deals})
    if rules.hand_size != standard.hand_size:
        said.append(gettext("hands and feet of %(n)s cards") % {"n": rules.hand_size})
    if rules.minimums != standard.minimums:
        shown = " / ".join(str(points) for points in rules.minimums[: rules.deals])
        said.append(gettext("first meld at least %(points)s points") % {"points": shown})
    if rules.going_out_piles != standard.going_out_piles:
        said.append(
            gettext("going out with %(clean)s clean, %(dirty)s dirty and %(wild)s wild piles")
            % {"clean": rules.clean_piles, "dirty": rules.dirty_piles, "wild": rules.wild_piles}
        )
    if rules.pile_take != standard.pile_take:
        if rules.pile_take >= 270:
            said.append(gettext("taking the discard pile takes all of it"))
        else:
            said.append(gettext("taking the discard pile takes its top %(n)s cards") % {"n": rules.pile_take})
    if rules.red_three_value != standard.red_three_value:
        said.append(gettext("red threes %(n)s points") % {"n": rules.red_three_value})
    if rules.undo and announce_undo:
        said.append(gettext("undo within a turn"))
    return said


def house_rules_line(rules: engine.Rules, announce_undo: bool = True) -> str:
    """'House rules: 1 deal; …' for the table, or '' for a standard game (and for a solo game
    whose only house rule is undo: see rules_in_words)."""
    said = rules_in_words(rules, announce_undo)
    return gettext("House rules: %(rules)s") % {"rules": "; ".join(said)} if said else ""
