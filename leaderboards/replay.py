"""Replaying a stored game step by step with the engine, for the boards and the admin.

Every step is the spectator's view (`public_view`: no hand or foot cards) after one move, so
watching a replay shows what the table showed. Only the engine knows the rules; this module
only feeds it the stored moves in order, from the game's seed.
"""


from django.core.cache import cache

CACHE_SECONDS = 3600


def replay_steps(game) -> list[dict]:
    """[{"seq": 0, "seat": None, "action": None, "view": ...}, {"seq": 1, ...}, ...].

    A finished game never changes, so its steps are cached; a game still being played is
    replayed afresh each time.
    """
    if getattr(game, "status", None) != "finished":
        return compute_steps(game)
    key = f"leaderboards:replay:{game.pk}:{game.version}"
    steps = cache.get(key)
    if steps is None:
        steps = compute_steps(game)
        cache.set(key, steps, CACHE_SECONDS)
    return steps


def compute_steps(game) -> list[dict]:
    from games.engine import Game as EngineGame

    engine_game = EngineGame.new(game.seed)
    steps = [{"seq": 0, "seat": None, "action": None, "view": engine_game.public_view()}]
    for move in game.moves.order_by("seq"):
        engine_game.apply(move.seat, move.action)
        steps.append({"seq": move.seq, "seat": move.seat, "action": move.action,
                      "view": engine_game.public_view()})
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
        groups = [" ".join(group.get("cards", [])) + (f" → {group['to']}" if group.get("to") else "")
                  for group in action.get("groups", [])]
        return "meld " + " | ".join(groups)
    return str(kind)
