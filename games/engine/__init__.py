"""The Foot Canasta rules engine: pure Python, no Django, deterministic given a seed; the rules
are docs/RULES.md.

Public surface (docs/ENGINE.md): Game, Rules (a game's rules, STANDARD by default; RulesError
refuses a bad choice), RuleError, parse_cards, card_points, meld_status,
redact_events for the per-seat events, and normalise_action / public_fields (an action's fields).
Nothing else in the project knows a rule.
"""

from games.engine.actions import normalise_action, public_fields
from games.engine.cards import canonical_deck, card_name, card_points, parse_cards
from games.engine.errors import MESSAGES, RuleError
from games.engine.events import redact_events
from games.engine.game import Game
from games.engine.melds import meld_status
from games.engine.rules import STANDARD, Rules, RulesError

__all__ = [
    "MESSAGES",
    "STANDARD",
    "Game",
    "RuleError",
    "Rules",
    "RulesError",
    "canonical_deck",
    "card_name",
    "card_points",
    "meld_status",
    "normalise_action",
    "parse_cards",
    "public_fields",
    "redact_events",
]
