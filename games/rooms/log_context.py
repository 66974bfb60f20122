"""Which game and seat the code running now serves, for the log lines (server.logs writes them
into each record). Context variables: each socket's task and each bot's turn has its own, and
the threads that serve them get a copy (asyncio.to_thread, asgiref's sync_to_async)."""

import uuid
from contextvars import ContextVar

GAME_ID: ContextVar[str | None] = ContextVar("game_id", default=None)
SEAT: ContextVar[str | None] = ContextVar("seat", default=None)


def serving(game_id: str | uuid.UUID, seat: str | None) -> None:
    GAME_ID.set(str(game_id))
    SEAT.set(seat)
