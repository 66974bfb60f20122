"""Error codes of the server and the engine -> messages in the player's language.

The wire carries a stable `code` and a `message` rendered here with gettext, in the language of
the request (HTTP: LocaleMiddleware) or of the websocket's scope (`language_of_scope`). A code
with no entry here falls back to the English message that came with it (the engine's own).
"""
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

SERVER_MESSAGES = {
    # websocket
    "bad_json": _("The message was not valid JSON."),
    "bad_message": _("The message is not a JSON object with a type."),
    "unknown_type": _("Unknown message type."),
    "bad_action": _("The action is not a JSON object with a type."),
    "stale_version": _("The game has moved on since you acted; your view has been refreshed."),
    "not_seated": _("You are watching this game: only seated players can do that."),
    "not_started": _("The game has not started yet."),
    "game_over": _("The game is over."),
    "bot_seat": _("That seat is played by the computer."),
    "hint_unavailable": _("Hints are off in the ranked daily game."),
    "hint_failed": _("No hint could be found."),
    "busy": _("The server is busy, please try again."),
    # HTTP
    "not_found": _("There is no such game."),
    "bad_request": _("The request is not valid JSON."),
    "bad_mode": _("Unknown game mode."),
    "bad_level": _("Unknown level: choose easy, normal or hard."),
    "bad_seat": _("Unknown seat: choose S, W, N or E."),
    "seat_taken": _("That seat is taken."),
    "game_full": _("The game is full."),
    "not_friends": _("Only games with friends can be joined."),
    "already_started": _("The game has already started."),
    "not_host": _("Only the player who made the game can start it."),
    "no_session": _("Open the site first: your browser has no player yet."),
    "banned": _("This player may not play."),
    "csrf_failed": _("The request lacks a valid CSRF token; reload the page."),
    "method_not_allowed": _("Method not allowed."),
    "invalid_position": _("The stored position is not valid."),
}


ENGINE_MESSAGES = {
    # the engine's codes (games/engine/errors.py), the same texts made translatable
    'bad_action': _('That is not a valid action.'),
    'unknown_action': _('Unknown action type: {type}.'),
    'missing_field': _("The action is missing the field '{field}'."),
    'bad_field': _("The field '{field}' is not part of this action or has the wrong form."),
    'action_too_big': _('The action is too big (at most {limit} bytes).'),
    'bad_card': _("'{card}' is not a card name (ranks 4-9 T J Q K A 2 3, suits C D H S, or JK)."),
    'bad_seat': _("'{seat}' is not a seat (S, W, N or E)."),
    'game_over': _('The game is over.'),
    'not_your_turn': _('It is not your turn: {turn} is to play.'),
    'must_draw_first': _('Draw 2 or take the pile before you meld or discard.'),
    'already_drew': _('You have already drawn this turn.'),
    'card_not_held': _('You do not hold {card}.'),
    'pile_empty': _('The discard pile is empty.'),
    'pile_top_is_three': _('A three is on top of the discard pile: nobody can take it.'),
    'no_matching_pair': _('To take the pile you need two cards matching the top card {top}.'),
    'card_does_not_match': _('{card} cannot go into the meld with the top card {top}.'),
    'empty_group': _('A meld group needs at least one card.'),
    'bad_rank': _("'{rank}' is not a meld rank (4 to A, or wild)."),
    'meld_too_small': _('A new meld needs at least 3 cards.'),
    'meld_too_large': _('A meld has at most 7 cards.'),
    'pile_complete': _('That meld is already a complete pile of 7 cards.'),
    'three_in_meld': _('Threes can never be melded.'),
    'mixed_ranks': _('A meld holds naturals of one rank only.'),
    'natural_to_wild_meld': _('A wild meld takes only wild cards.'),
    'too_many_wild': _('A meld needs at least twice as many natural cards as wild cards.'),
    'no_such_meld': _('Your team has no incomplete {rank} meld to add to.'),
    'duplicate_incomplete_meld': _('Your team already has an incomplete {rank} meld: add to it instead.'),
    'below_first_meld_minimum': _('Your first meld must be worth at least {minimum} points (this one is worth {points}).'),
    'must_keep_cards': _('In your foot you must keep at least two cards unless you can go out.'),
    'cannot_go_out': _('You cannot go out yet: {reason}.'),
    'invalid_position': _('Invalid position: {reason}.'),
}


def message_for(code: str, fallback: str = "", params: dict | None = None) -> str:
    """The message of `code` in the active language, formatted with `params` when it has any."""
    template = SERVER_MESSAGES.get(code) or ENGINE_MESSAGES.get(code)
    if template is None:
        return fallback or code
    text = str(template)
    if params:
        try:
            text = text.format(**params)
        except (KeyError, IndexError, ValueError):
            pass
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
