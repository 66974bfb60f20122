"""A test's websocket client in process (channels.testing): a player's session cookie, a socket
to a game with the headers a browser sends, and reading its messages by type or by a test."""

from collections.abc import Callable

from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from server.asgi import application

TIMEOUT = 10  # seconds a test waits for one message before it fails


def session_cookie(player) -> str:
    """The Cookie header value of a new session signed in as `player`."""
    store = SessionStore()
    store["player_id"] = str(player.id)
    store.create()
    return f"sessionid={store.session_key}"


def communicator(game_id, cookie: str | None = None, language: str | None = None) -> WebsocketCommunicator:
    """A socket to the game's consumer from this site's origin, with the session and language given."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if language:
        headers.append((b"accept-language", language.encode()))
    return WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)


async def receive(comm: WebsocketCommunicator, *types: str) -> dict:
    """The next message of one of `types`, skipping presence (and anything else) meanwhile."""
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] in types:
            return message


async def receive_where(comm: WebsocketCommunicator, kind: str, test: Callable[[dict], bool]) -> dict:
    """The next message of type `kind` that passes `test` (earlier ones of the kind are skipped)."""
    while True:
        message = await receive(comm, kind)
        if test(message):
            return message


async def close_code(comm: WebsocketCommunicator) -> int | None:
    """The code the server closes the socket with."""
    while True:
        output = await comm.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return output.get("code")
