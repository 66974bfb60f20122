"""Secrets out of the logs: the token of a personal link (`/me/<token>/`) is written as `[redacted]`.

The token is in the path of the link, and both of the site's request logs write paths: Daphne's
access log (server.serve installs `RedactingAccessLog`) and Django's loggers ("Not Found: /me/…",
through the `RedactSecrets` filter on the handlers of settings.LOGGING).
"""

import logging
import re

from daphne.access import AccessLogGenerator  # type: ignore[import-untyped]

PERSONAL_LINK = re.compile(r"/me/[^/\s\"'?#]+")
REDACTED_LINK = "/me/[redacted]"


def redact(text: str) -> str:
    return PERSONAL_LINK.sub(REDACTED_LINK, text)


class RedactSecrets(logging.Filter):
    """Rewrites a record's message with the secrets redacted (the record is then pre-formatted)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class RedactingAccessLog(AccessLogGenerator):  # type: ignore[misc]  # Daphne ships no type hints
    """Daphne's access log, with the secrets of each request's path redacted."""

    def __call__(self, protocol: object, action: str, details: object) -> None:
        if isinstance(details, dict) and isinstance(details.get("path"), str):
            details = {**details, "path": redact(details["path"])}
        super().__call__(protocol, action, details)
