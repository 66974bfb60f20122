"""Reading what a request says: query parameters, path values and JSON bodies, checked once.

Every view of the site (games and leaderboards) reads its inputs through these functions, so a
value is either what the view expects or None (the view then answers a clean 4xx), and no
spelling of a number, a date, a game id or a body can reach a 500:

- numbers are ASCII digits only (`"²".isdigit()` and `"٣".isdigit()` are true in Python, and
  `int()` of 5,000 digits raises), within bounds checked on the text's length first;
- dates are `YYYY-MM-DD` between `EARLIEST_DATE` and tomorrow (UTC);
- a game id is a UUID in its 8-4-4-4-12 hex spelling, any case, returned canonical
  (`str(uuid.UUID(...))`, lower case); `{…}`, `urn:uuid:` and 32 bare hex digits are refused;
- a JSON body is at most `MAX_JSON_BYTES` and nested at most `MAX_JSON_DEPTH` deep.

This module must not import the apps' models: leaderboards and the server import it too.
"""

import datetime
import json
import re
import uuid
from typing import Any

from django.http import HttpRequest
from django.urls import register_converter

EARLIEST_DATE = datetime.date(2020, 1, 1)  # older than the site: no board, no game can be from before
MAX_JSON_BYTES = 16 * 1024  # a nickname, a mode, a seat: the largest real body is far below this
MAX_JSON_DEPTH = 8  # the real bodies are flat objects; a test position nests five deep

ASCII_DIGITS = re.compile(r"[0-9]+")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
GAME_ID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def whole_number(text: object, low: int, high: int) -> int | None:
    """`text` as an int in low..high when it is written in ASCII digits only; else None."""
    if not isinstance(text, str) or not ASCII_DIGITS.fullmatch(text):
        return None
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(high)):  # before int(): 5,000 digits (zeros too) would raise
        return None
    number = int(significant)
    return number if low <= number <= high else None


def query_number(request: HttpRequest, name: str, default: int, low: int, high: int) -> int | None:
    """The query parameter `name` as a whole number in low..high, `default` when absent; None if bad."""
    if name not in request.GET:
        return default
    return whole_number(request.GET[name], low, high)


def latest_date() -> datetime.date:
    """Tomorrow in UTC: the latest date any page may name (a board of the future is empty)."""
    return datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=1)


def calendar_date(text: object) -> datetime.date | None:
    """A real date written YYYY-MM-DD, whatever its year; else None (a view that tells a
    malformed date from one out of range reads this, then checks `in_site_range`)."""
    if not isinstance(text, str) or not ISO_DATE.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def in_site_range(day: datetime.date) -> bool:
    return EARLIEST_DATE <= day <= latest_date()


def iso_date(text: object) -> datetime.date | None:
    """A date written YYYY-MM-DD between EARLIEST_DATE and tomorrow (UTC); else None."""
    day = calendar_date(text)
    return day if day is not None and in_site_range(day) else None


def game_id(text: object) -> str | None:
    """The canonical spelling of a game id (lower-case 8-4-4-4-12 hex), or None for any other text."""
    if not isinstance(text, str) or not GAME_ID.fullmatch(text):
        return None
    return str(uuid.UUID(text))


class GameIdConverter:
    """`<game:game_id>` in a URL: the 8-4-4-4-12 spelling in either case, handed to the view canonical."""

    regex = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def to_python(self, value: str) -> str:
        return str(uuid.UUID(value))

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(GameIdConverter, "game")


def json_depth(value: object) -> int:
    """How deep a parsed JSON value nests (a scalar is 0), walked without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def json_object_body(
    request: HttpRequest, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> dict[str, Any] | None:
    """The request's body as a JSON object (an empty body is {}); None when too big, too deep or not one."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if whole_number(declared, 0, max_bytes) is None:  # refused before the body is read
        return None
    raw = request.body
    if len(raw) > max_bytes:
        return None
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nesting past the parser's stack
        return None
    if not isinstance(body, dict) or json_depth(body) > max_depth:
        return None
    return body
