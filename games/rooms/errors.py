"""The room service's refusals: a stable code (translated by games.messages) and an HTTP status.

A refusal by the room, not a rule: the engine's own refusals are games.engine.RuleError. Calls
nothing.
"""

from typing import Any


class RoomError(Exception):
    """A refusal by the room (not a rule): a stable code, translated by games.messages."""

    def __init__(self, code: str, status: int = 400, params: dict[str, Any] | None = None):
        super().__init__(code)
        self.code = code
        self.status = status
        self.params = params or {}
