"""Error codes of the server and the engine -> messages in the player's language.

The wire carries a stable `code` and a `message` rendered here with gettext, in the language of
the request (HTTP: LocaleMiddleware) or of the websocket's scope (`language_of_scope`). One table:
the engine's codes and texts come from games.engine.errors, and SERVER_MESSAGES adds only the
codes the engine does not have (where the server refuses for the engine's reason, e.g. a bad seat
or a finished game, it uses the engine's code and texts). A code with no entry falls back to the
English message that came with it.

Every refusal a player can meet also says what to do next: NEXT_STEPS holds that part per code
(per code and variant where the same code means two things, e.g. a first meld short of the
minimum in a lay-down or in a take), and `message_for` puts it after the refusal. The engine gives
the numbers in the error's params (how many points are missing, which piles are still needed);
card names in params are shown as on the table ("9♦"), and numbers in the language's digits (a
Bengali text says "১টি ডার্টি পাইল", as the page writes its numbers). tests/rooms/test_messages.py walks every
code the engine can raise and fails when one has no next step in en, de or bn.
"""

import contextlib
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine.errors import MESSAGES

SERVER_MESSAGES = {
    # websocket
    "bad_json": _("The message was not valid JSON."),
    "bad_message": _("The message is not a JSON object with a type."),
    "unknown_type": _("Unknown message type."),
    "stale_version": _("The game has moved on since you acted; your view has been refreshed."),
    "not_seated": _("You are watching this game: only seated players can do that."),
    "watch_daily_later": _(
        "A daily game can be watched only once its date is over: until then its deals are everyone's deals of the day."
    ),
    "not_started": _("The game has not started yet."),
    "bot_seat": _("That seat is played by the computer."),
    "hint_unavailable": _("Hints are off in the ranked daily game."),
    "hint_failed": _("No hint could be found."),
    "busy": _("The server is busy, please try again."),
    "look_back_bad_deal": _("There is no such deal to look back on."),
    "look_back_deal_not_over": _("This deal is still being played: the look back comes once it is over."),
    "look_back_daily_later": _(
        "A daily game can be looked back on only once its date is over: until then its deals are everyone's deals "
        "of the day."
    ),
    "look_back_busy": _("Many players are looking back right now."),
    "look_back_yours_waiting": _("Your other look backs are still being worked out."),
    "look_back_later": _("Your look back is still being worked out: players' moves come first."),
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
    # house rules of POST /api/games (docs/RULES.md §17); {problem} names the key and its range
    "unknown_rule": _("That is not one of the house rules: {problem}."),
    "bad_rule_type": _("A house rule has the wrong form: {problem}."),
    "rule_out_of_range": _("A house rule is out of its range: {problem}."),
    "unplayable_rules": _("These house rules cannot be played: {problem}."),
    "standard_rules_only": _("Only solo games and games with friends take house rules: this one is standard."),
    "seat_taken": _("That seat is taken."),
    "game_full": _("The game is full."),
    "unknown_invite": _("No table has this code."),
    "not_friends": _("Only games with friends can be joined."),
    "already_started": _("The game has already started."),
    "not_host": _("Only the player who made the game can start it."),
    "not_finished": _("The game is not over yet: play again once it has ended."),
    "no_session": _("Open the site first: your browser has no player yet."),
    "banned": _("This player may not play."),
    "csrf_failed": _("The request lacks a valid CSRF token; reload the page."),
    "method_not_allowed": _("Method not allowed."),
}


# The engine's codes and English texts (games/engine/errors.py) are the source; gettext finds their
# translations in locale/*/django.po by the English text. makemessages extracts them from the
# engine's `gettext_noop` marks; tests/rooms/test_messages.py fails when a language lacks one.
ENGINE_MESSAGES = {code: _(text) for code, text in MESSAGES.items()}


RELOAD = _("Reload the page, then try again.")  # what the page never sends: only a reload helps

NEXT_STEPS = {
    # the engine's codes (games/engine/errors.py)
    "bad_action": RELOAD,
    "unknown_action": RELOAD,
    "missing_field": RELOAD,
    "bad_field": RELOAD,
    "action_too_big": RELOAD,
    "bad_card": RELOAD,
    "bad_seat": RELOAD,
    "bad_rank": RELOAD,
    "invalid_position": RELOAD,
    "game_over": _("Start a new game from the home page."),
    "not_your_turn": _("Wait until it is your turn."),
    "must_draw_first": _("Press Draw 2, or select two cards matching the top card and press Take pile."),
    "already_drew": _("Meld what you can, then select one card and press Discard."),
    "card_not_held": _("Select cards from your own hand only."),
    "pile_empty": _("Press Draw 2."),
    "pile_top_is_three": _("Press Draw 2 instead."),
    "no_matching_pair": _(
        "Select two cards of the top card's rank (two 2s for a 2, two jokers for a joker) and press "
        "Take pile, or press Draw 2."
    ),
    "card_does_not_match": _(
        "Select only cards of the top card's rank and wild cards, then press Take pile; put other melds with Set aside."
    ),
    "empty_group": _("Select the cards first."),
    "meld_too_small": _("Select at least 3 cards, then press Meld."),
    "meld_too_large": _("Select at most 7 cards; start a second meld once the first is a complete pile."),
    "pile_complete": _("Start a new meld of that rank with 3 cards and press Meld."),
    "three_in_meld": _("Take the three out of your selection: a three can only be discarded."),
    "mixed_ranks": _(
        "Select one rank at a time: press Set aside after each group, then Lay down (once your team is "
        "down, meld each group on its own)."
    ),
    "natural_to_wild_meld": _("Add only 2s and jokers to the wild meld; put naturals on a meld of their rank."),
    "too_many_wild": _(
        "Add more natural cards of that rank, or select fewer wild cards (at most 1 in a meld of 3 to 5 "
        "cards, 2 in a meld of 6 or 7)."
    ),
    "no_such_meld": _("Start the meld first: select 3 or more cards of that rank and press Meld."),
    "duplicate_incomplete_meld": _("Select the cards, then tap your team's meld of that rank to add them."),
    "below_first_meld_minimum": _(
        "You need {missing} more points: set aside more melds with Set aside, then press Lay down."
    ),
    "take_cannot_reach_minimum": _("Press Draw 2 and collect cards for your first meld."),
    "must_keep_cards": _("Meld fewer cards so that two stay in your foot: one to discard, one to keep."),
    "cannot_go_out": _("Keep two cards in your foot and play on: meld fewer, then discard one."),
    "undo_not_allowed": _("Check your melds before you lay them down: here they stay."),
    "nothing_to_undo": _("Play on: meld, or discard to end your turn."),
    # the server's codes a player can meet at the table
    "stale_version": _("Look at the table, then make your move again."),
    "not_seated": _("Start your own game from the home page to play."),
    "not_started": _("Wait for the host to start the game."),
    "unknown_invite": _("Check it with your friend: it is the 6 letters and digits at the end of the invite link."),
    "bot_seat": _("Play from your own seat."),
    "hint_unavailable": _("Choose your move yourself: the rules page explains each one."),
    "hint_failed": _("Press Hint again, or choose your move yourself."),
    "busy": _("Wait a moment, then try again."),
    "look_back_bad_deal": _("Choose a deal that is over."),
    "look_back_deal_not_over": _("Finish the deal, then press Look back."),
    "look_back_daily_later": _("Come back after midnight UTC."),
    "look_back_busy": _("Press Look back again in a minute."),
    "look_back_yours_waiting": _("Press Look back again once one of them is done."),
    "look_back_later": _("Press Look back again in a minute."),
}
# (code, params["action"]) -> the next step where one code has two meanings
NEXT_STEP_VARIANTS = {
    ("below_first_meld_minimum", "take_pile"): _(
        "You need {missing} more points: set aside melds that reach {minimum} together with the top card, "
        "then press Take pile."
    ),
}
GOING_OUT_NEEDS = {  # R49b: one text per pile kind, with its number
    "clean": lambda n: ngettext("{n} clean pile", "{n} clean piles", n),
    "dirty": lambda n: ngettext("{n} dirty pile", "{n} dirty piles", n),
    "wild": lambda n: ngettext("{n} wild pile", "{n} wild piles", n),
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
NATIVE_DIGITS = {"bn": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")}  # languages not written in Latin digits
CARD_PARAMS = ("card", "top")


def message_for(code: str, fallback: str = "", params: dict[str, Any] | None = None) -> str:
    """The message of `code` in the active language, formatted with `params` when it has any,
    followed by what to do next when the code has a next step."""
    params = shown_params(params or {})
    text = refusal_text(code, fallback, params)
    step = next_step_for(code, params)
    return f"{text} {step}" if step else text


def refusal_text(code: str, fallback: str, params: dict[str, Any]) -> str:
    """What was refused and why (the table's message without its next step)."""
    if code == "cannot_go_out" and "partner_in_foot" in params:
        return going_out_text(params)
    template = SERVER_MESSAGES.get(code) or ENGINE_MESSAGES.get(code)
    if template is None:
        return fallback or code
    return formatted(str(template), params)


def next_step_for(code: str, params: dict[str, Any] | None = None) -> str:
    """What the player can do next after a refusal of `code`, in the active language ("" if none)."""
    params = params or {}
    template = NEXT_STEP_VARIANTS.get((code, str(params.get("action")))) or NEXT_STEPS.get(code)
    return formatted(str(template), params) if template is not None else ""


def going_out_text(params: dict[str, Any]) -> str:
    """R49: why going out is refused, from the engine's counts ("…you still need 1 dirty pile.")."""
    if not params.get("partner_in_foot"):
        return gettext("You can go out only once your partner has picked up their foot.")
    counts = {kind: int(params.get(kind) or 0) for kind in GOING_OUT_NEEDS}
    needs = [GOING_OUT_NEEDS[kind](n).format(n=number_text(n)) for kind, n in counts.items() if n]
    listed = (
        needs[0]
        if len(needs) == 1
        else gettext("{first} and {last}").format(first=", ".join(needs[:-1]), last=needs[-1])
    )
    if "required_clean" in params:  # house rules (docs/RULES.md V4): the table's own numbers
        return gettext(
            "Your table's rules ask for {clean} clean, {dirty} dirty and {wild} wild piles to go out: "
            "you still need {needs}."
        ).format(
            clean=params["required_clean"], dirty=params["required_dirty"], wild=params["required_wild"], needs=listed
        )
    return gettext("You can go out only with 2 clean, 2 dirty and 1 wild pile: you still need {needs}.").format(
        needs=listed
    )


def number_text(value: int | float) -> str:
    """A number as the active language writes it: Bengali in Bengali digits ("১২"), else as is."""
    digits = NATIVE_DIGITS.get((translation.get_language() or "").split("-")[0])
    return str(value).translate(digits) if digits else str(value)


def shown_params(params: dict[str, Any]) -> dict[str, Any]:
    """The params as the message shows them: card names as on the table ("9♦", "10♠", "Joker"),
    numbers in the language's digits (`number_text`)."""
    shown = {
        name: number_text(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        for name, value in params.items()
    }
    for name in CARD_PARAMS:
        card = shown.get(name)
        if isinstance(card, str) and len(card) == 2 and card[1] in SUIT_SYMBOLS:
            shown[name] = ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]
        elif card == "JK":
            shown[name] = gettext("Joker")
    return shown


def formatted(template: str, params: dict[str, Any]) -> str:
    text = template
    if params:
        # A translation whose placeholders do not match the params is shown unformatted, not lost.
        with contextlib.suppress(KeyError, IndexError, ValueError):
            text = template.format(**params)
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


def language_of_scope(scope: Mapping[str, Any]) -> str:
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


def render_error(code: str, language: str, fallback: str = "", params: dict[str, Any] | None = None) -> str:
    with translation.override(language):
        return message_for(code, fallback, params)
