"""Replaying a stored game step by step with the engine, for the boards and the admin.

Every step is the spectator's view (`public_view`: no hand or foot cards) after one move, so
watching a replay shows what the table showed. Only the engine knows the rules; this module
only feeds it the stored moves in order, from the game's stored initial position (games.replay).
Applying a whole game's moves is cheap beside building the views, so only the asked-for steps get one.
"""

from games.engine import public_fields
from games.replay import initial_game


def step_count(game) -> int:
    """Steps of a replay: the deal (step 0) and one per stored move."""
    return game.moves.count() + 1


def replay_steps(game, start: int = 0, stop: int | None = None) -> list[dict]:
    """Steps start..stop-1: [{"seq": 0, "seat": None, "action": None, "view": ...}, ...]."""
    engine_game = initial_game(game)
    steps = []
    if start == 0:
        steps.append({"seq": 0, "seat": None, "action": None, "view": engine_game.public_view()})
    moves = game.moves.order_by("seq")
    if stop is not None:
        moves = moves.filter(seq__lt=stop)
    for move in moves:
        engine_game.apply(move.seat, move.action)
        if move.seq >= start:
            steps.append(
                {
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": public_fields(move.action),
                    "view": engine_game.public_view(),
                }
            )
    return steps


def describe_action(action: dict | None) -> str:
    """A one-line, plain-text summary of a move (escaped by the templates that show it)."""
    if not action:
        return "deal"
    kind = action.get("type", "?")
    if kind == "discard":
        return f"discard {action.get('card', '')}"
    if kind == "take_pile":
        return "take the pile with " + " ".join(action.get("cards", []))
    if kind == "meld":
        groups = [
            " ".join(group.get("cards", [])) + (f" → {group['to']}" if group.get("to") else "")
            for group in action.get("groups", [])
        ]
        return "meld " + " | ".join(groups)
    return str(kind)
