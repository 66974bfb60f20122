"""Error codes of the server and the engine -> messages in the player's language.

The wire carries a stable `code` and a `message` rendered here with gettext, in the language of
the request (HTTP: LocaleMiddleware) or of the websocket's scope (`language_of_scope`). One table:
the engine's codes and texts come from games.engine.errors, and SERVER_MESSAGES adds only the
codes the engine does not have (where the server refuses for the engine's reason, e.g. a bad seat
or a finished game, it uses the engine's code and texts). A code with no entry falls back to the
English message that came with it.
"""

import contextlib

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.engine.errors import MESSAGES

SERVER_MESSAGES = {
    # websocket
    "bad_json": _("The message was not valid JSON."),
    "bad_message": _("The message is not a JSON object with a type."),
    "unknown_type": _("Unknown message type."),
    "stale_version": _("The game has moved on since you acted; your view has been refreshed."),
    "not_seated": _("You are watching this game: only seated players can do that."),
    "not_started": _("The game has not started yet."),
    "bot_seat": _("That seat is played by the computer."),
    "hint_unavailable": _("Hints are off in the ranked daily game."),
    "hint_failed": _("No hint could be found."),
    "busy": _("The server is busy, please try again."),
    "seat_open_elsewhere": _(
        "Your seat is also open in another tab or device: both show the same game, play in one of them."
    ),
    "bad_reaction": _("That is not one of the reactions."),
    "reaction_too_soon": _("One reaction at a time: wait {seconds} s."),
    # HTTP
    "not_found": _("There is no such game."),
    "bad_request": _("The request is not valid JSON."),
    "bad_mode": _("Unknown game mode."),
    "bad_level": _("Unknown level: choose easy, normal or hard."),
    "seat_taken": _("That seat is taken."),
    "game_full": _("The game is full."),
    "not_friends": _("Only games with friends can be joined."),
    "already_started": _("The game has already started."),
    "not_host": _("Only the player who made the game can start it."),
    "no_session": _("Open the site first: your browser has no player yet."),
    "banned": _("This player may not play."),
    "csrf_failed": _("The request lacks a valid CSRF token; reload the page."),
    "method_not_allowed": _("Method not allowed."),
}


# The engine's codes and English texts (games/engine/errors.py) are the source; gettext finds their
# translations in locale/*/django.po by the English text. makemessages extracts them from the
# engine's `gettext_noop` marks; tests/rooms/test_messages.py fails when a language lacks one.
ENGINE_MESSAGES = {code: _(text) for code, text in MESSAGES.items()}


def message_for(code: str, fallback: str = "", params: dict | None = None) -> str:
    """The message of `code` in the active language, formatted with `params` when it has any."""
    template = SERVER_MESSAGES.get(code) or ENGINE_MESSAGES.get(code)
    if template is None:
        return fallback or code
    text = str(template)
    if params:
        # A translation whose placeholders do not match the params is shown unformatted, not lost.
        with contextlib.suppress(KeyError, IndexError, ValueError):
            text = text.format(**params)
    return text


def supported_language(candidate: str | None) -> str | None:
    """The site language matching `candidate` ("de-AT" -> "de"), or None."""
    if not candidate:
        return None
    codes = [code for code, _name in settings.LANGUAGES]
    candidate = candidate.strip().lower().replace("_", "-")
    if candidate in codes:
        return candidate
    base = candidate.split("-")[0]
    return base if base in codes else None


def language_of_scope(scope) -> str:
    """The websocket's language: the `django_language` cookie, then Accept-Language, then the default."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    chosen = supported_language(cookie)
    if chosen:
        return chosen
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            for part in value.decode("latin-1").split(","):
                chosen = supported_language(part.split(";")[0])
                if chosen:
                    return chosen
    return settings.LANGUAGE_CODE


def render_error(code: str, language: str, fallback: str = "", params: dict | None = None) -> str:
    with translation.override(language):
        return message_for(code, fallback, params)
