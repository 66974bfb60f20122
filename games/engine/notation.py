"""The position notation (docs/NOTATION.md): a JSON object that fully determines a game.

`position_of(game)` writes it; `game_from_position(game, position)` reads it back, refusing with
RuleError("invalid_position") anything that is not a reachable kind of position: cards that are
not exactly the 270, illegal melds, a red three among a player's cards, and so on.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any

from games.engine.cards import RED_THREES, canonical_deck, check_card, format_cards, is_red_three
from games.engine.errors import RuleError
from games.engine.melds import PILE_SIZE, meld_problem, meld_rank
from games.engine.records import Position
from games.engine.rules import STANDARD, Rules, RulesError
from games.engine.seats import DEALER_OF_DEAL, SEATS, TEAMS
from games.engine.takeback import points_from_notation, points_notation

if TYPE_CHECKING:
    from games.engine.game import Game

PHASES = ("draw", "play", "over")
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
FULL_DECK = Counter(canonical_deck())


def position_of(game: Game) -> Position:
    """The notation of `game`; a game of non-standard rules adds `rules` (a standard game's
    position stays as stored games have it)."""
    position: Position = {
        "seed": game.seed,
        "deal": game.deal,
        "dealer": game.dealer,
        "turn": game.turn,
        "phase": game.phase,
        "hands": {s: format_cards(game.hands[s]) for s in SEATS},
        "feet": {s: _foot_notation(game.feet[s]) for s in SEATS},
        "stock": format_cards(reversed(game.stock)),
        "discard": format_cards(game.discard),
        "melds": {t: [format_cards(m) for m in game.melds[t]] for t in TEAMS},
        "red_threes": {t: format_cards(game.red_threes[t]) for t in TEAMS},
        "down": dict(game.down),
        "scores": copy.deepcopy(game.deal_scores),
        "ply": game.ply,
    }
    if not game.rules.is_standard:
        position["rules"] = game.rules.to_json()
    if game.undo_points:  # V7: only while the player to act has melds to take back
        position["undo"] = points_notation(game.undo_points)
    return position


def _foot_notation(foot: list[str] | None) -> str | None:
    return None if foot is None else format_cards(foot)


def _invalid(reason: str) -> RuleError:
    return RuleError("invalid_position", None, reason=reason)


def _cards(value: object, where: str) -> list[str]:
    if not isinstance(value, str):
        raise _invalid(f"{where} must be a string of cards")
    try:
        return [check_card(c) for c in value.split()]
    except RuleError:
        raise _invalid(f"{where} holds a card name that does not exist") from None


def _seat_map(position: Position, key: str) -> dict[str, Any]:
    value = position.get(key)
    if not isinstance(value, dict) or set(value) != set(SEATS):
        raise _invalid(f"'{key}' must name the seats S, W, N and E")
    return value


def _team_map(position: Position, key: str) -> dict[str, Any]:
    value = position.get(key)
    if not isinstance(value, dict) or set(value) != set(TEAMS):
        raise _invalid(f"'{key}' must name the teams NS and EW")
    return value


def game_from_position(game: Game, position: object) -> Game:
    if not isinstance(position, dict):
        raise _invalid("a position is a JSON object")
    _read_header(game, position)
    game.hands = {s: _cards(v, f"hand {s}") for s, v in _seat_map(position, "hands").items()}
    game.feet = {s: None if v is None else _cards(v, f"foot {s}") for s, v in _seat_map(position, "feet").items()}
    game.stock = list(reversed(_cards(position.get("stock"), "stock")))
    game.discard = _cards(position.get("discard"), "discard")
    melds = _team_map(position, "melds")
    if any(not isinstance(v, list) for v in melds.values()):
        raise _invalid("melds of a team are a list")
    game.melds = {t: [_cards(m, f"meld of {t}") for m in melds[t]] for t in TEAMS}
    game.red_threes = {t: _cards(v, f"red threes of {t}") for t, v in _team_map(position, "red_threes").items()}
    down = _team_map(position, "down")
    if any(not isinstance(v, bool) for v in down.values()):
        raise _invalid("'down' holds true or false")
    game.down = dict(down)
    _validate(game)
    game.undo_points = points_from_notation(game, position["undo"]) if "undo" in position else []
    return game


def _read_rules(position: Position) -> Rules:
    if "rules" not in position:
        return STANDARD
    try:
        return Rules.from_json(position["rules"])
    except RulesError as error:
        raise _invalid(error.message) from None


def _read_header(game: Game, position: Position) -> None:
    game.rules = rules = _read_rules(position)
    seed = position.get("seed")
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise _invalid("'seed' must be an integer or a string")
    deal = position.get("deal")
    if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= rules.deals:
        raise _invalid(f"'deal' must be 1 to {rules.deals}")
    if position.get("dealer") != DEALER_OF_DEAL[deal]:
        raise _invalid(f"the dealer of deal {deal} is {DEALER_OF_DEAL[deal]} (R8)")
    phase = position.get("phase")
    if phase not in PHASES:
        raise _invalid("'phase' must be draw, play or over")
    turn = position.get("turn")
    if (phase == "over") != (turn is None) or (turn is not None and turn not in SEATS):
        raise _invalid("'turn' is a seat, or null once the game is over")
    scores = position.get("scores", [])
    if not isinstance(scores, list) or len(scores) > rules.deals or any(not isinstance(s, dict) for s in scores):
        raise _invalid("'scores' is a list of finished deals")
    for score in scores:
        _check_deal_score(score)
    if phase == "over" and (deal != rules.deals or len(scores) != rules.deals):
        raise _invalid(f"a game is over only after the {ORDINALS[rules.deals]} deal is scored")
    ply = position.get("ply", 0)
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise _invalid("'ply' is a count of actions")
    game.seed, game.deal, game.dealer, game.phase, game.turn = seed, deal, DEALER_OF_DEAL[deal], phase, turn
    game.deal_scores, game.ply = copy.deepcopy(scores), ply


def _check_deal_score(score: dict[str, Any]) -> None:
    """A finished deal's score: for NS and EW, whole-number items including a total (R54)."""
    if set(score) != set(TEAMS):
        raise _invalid("a deal score names the teams NS and EW")
    for item in score.values():
        if (
            not isinstance(item, dict)
            or "total" not in item
            or any(not isinstance(v, int) or isinstance(v, bool) for v in item.values())
        ):
            raise _invalid("a team's deal score holds whole numbers, with a 'total'")


def _validate(game: Game) -> None:
    everything = Counter(game.stock) + Counter(game.discard)
    for s in SEATS:
        everything.update(game.hands[s])
        everything.update(game.feet[s] or [])
        if any(is_red_three(c) for c in game.hands[s]):
            raise _invalid(f"a red three is among {s}'s cards (R34)")
    for t in TEAMS:
        if any(c not in RED_THREES for c in game.red_threes[t]):
            raise _invalid("only red threes are laid as red threes")
        everything.update(game.red_threes[t])
        ranks = []
        for meld in game.melds[t]:
            everything.update(meld)
            problem = meld_problem(meld)
            if problem:
                raise _invalid(f"a meld of {t} is illegal: {problem.message}")
            if len(meld) < PILE_SIZE:
                ranks.append(meld_rank(meld))
        if len(ranks) != len(set(ranks)):
            raise _invalid(f"{t} has two incomplete melds of one rank (R20)")
        if game.melds[t] and not game.down[t]:
            raise _invalid(f"{t} has melds but is not down")
    if everything != FULL_DECK:
        raise _invalid("the cards are not exactly the 270 of five decks (R1)")
    # the header checked that the turn is None exactly when the game is over
    if game.turn is not None and not game.hands[game.turn] and game.feet[game.turn] is not None:
        raise _invalid("the player to act has an empty hand and has not picked up the foot (R25)")
