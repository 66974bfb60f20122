"""The log's format: human-readable lines by default (`make run`), or with LOG_FORMAT=json one
JSON object per line with the time, level, logger, process, game id, seat and request id.

`LogContext` puts the ids of what is being served into every record: the request id (the
`X-Request-ID` a proxy sent, else a new one, set by server.front for each request and socket)
and the game and seat (games.rooms.log_context, set by the room service). Every record goes
through `server.log_redaction.RedactSecrets` first, and nothing of the site logs a seed or a
hand (tests/reliability/test_json_logs.py greps a whole game's log for them).
"""

import logging
import secrets
from contextvars import ContextVar

from daphne.access import AccessLogGenerator  # type: ignore[import-untyped]
from django.conf import settings
from pythonjsonlogger.json import JsonFormatter

from games.rooms.log_context import GAME_ID, SEAT
from server.log_redaction import redact

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
REQUEST_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
JSON_FIELDS = ["asctime", "levelname", "name", "process", "game_id", "seat", "request_id", "message"]
HUMAN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"

access_log = logging.getLogger("foot.access")


def request_id_from(header: bytes | None) -> str:
    """A proxy's X-Request-ID when it is a plain token of at most 64 characters, else a new one."""
    if header:
        text = header.decode("latin-1")
        if len(text) <= 64 and set(text) <= REQUEST_ID_CHARACTERS:
            return text
    return secrets.token_hex(8)


class LogContext(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.game_id = GAME_ID.get()
        record.seat = SEAT.get()
        return True


class FrontAccessLog(AccessLogGenerator):  # type: ignore[misc]  # Daphne ships no type hints
    """With LOG_FORMAT=json the front (server.front) writes the access log itself, one record of
    the `foot.access` logger per request and per socket opened and closed, with the request id,
    game id and status: Daphne's own lines, written where none of those is known, are dropped."""

    def write_entry(
        self,
        host: str,
        date: object,
        request: str,
        status: int | None = None,
        length: int | None = None,
        ident: str | None = None,
        user: str | None = None,
    ) -> None:
        return


def log_request(method: str, path: str, status: int, seconds: float) -> None:
    access_log.info("%s %s %s %.1f ms", method, redact(path), status, seconds * 1000)


def log_socket(event: str, path: str, code: int | None = None) -> None:
    access_log.info("websocket %s %s%s", event, redact(path), f" {code}" if code is not None else "")


def formatter_from_settings() -> logging.Formatter:
    """The formatter of settings.LOGGING's handler, as LOG_FORMAT says."""
    if settings.LOG_FORMAT == "json":
        return JsonFormatter(JSON_FIELDS, rename_fields={"asctime": "time", "levelname": "level", "name": "logger"})
    return logging.Formatter(HUMAN_FORMAT)
