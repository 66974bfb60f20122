"""The websocket protocol of `/ws/game/<id>/` in one place: every message a client may send, every
message the server sends, and the close codes. docs/PROTOCOL.md words each one;
tests/rooms/test_protocol.py checks that it names every type and field declared here.

The consumer's dispatch is derived from `CLIENT_MESSAGES` (`read_client_frame` lets through only
those types; a client type `x` is handled by `on_x`, and no other name can be reached), and
every server message is built by the constructors below (a TypedDict called as a function is a
plain dict, checked by mypy), so a new message or field is declared here first.
Imports nothing of the project: every layer may build its messages here.
"""

import json
from typing import Any, Literal, NotRequired, TypedDict

Ref = str | int | None  # a client's `ref`, echoed in the answer (anything else is dropped)

# ---------------------------------------------------------------- close codes

# Daphne (autobahn) lets a server close only with 1000 or 3000-4999, so the standard 1008 (policy)
# and 1009 (too big) are sent as 4008 and 4009: the same last digits, in the application range.
CLOSE_POLICY = 4008  # a flood: past the token bucket, or too many frames waiting
CLOSE_TOO_BIG = 4009  # frame over 64 KB
CLOSE_NOT_FOUND = 4404  # no such game
CLOSE_BANNED = 4403  # the player is banned, or may not watch this game (yet)
# As HTTP's 408 and 429: silent too long (FOOT_WS_IDLE_SECONDS), or too many sockets held.
CLOSE_IDLE = 4408
CLOSE_TOO_MANY = 4429

# ---------------------------------------------------------------- client -> server


class ActionMessage(TypedDict):
    type: Literal["action"]
    action: dict[str, Any]
    v: int
    ref: NotRequired[Ref]


class CheckMessage(TypedDict):
    type: Literal["check"]
    action: dict[str, Any]
    ref: NotRequired[Ref]


class SyncMessage(TypedDict):
    type: Literal["sync"]


class NextDealMessage(TypedDict):
    type: Literal["next_deal"]


class HintMessage(TypedDict):
    type: Literal["hint"]
    ref: NotRequired[Ref]


class TakeChoiceMessage(TypedDict):
    type: Literal["take_choice"]
    ref: NotRequired[Ref]


class LookBackMessage(TypedDict):
    type: Literal["look_back"]
    deal: int
    ref: NotRequired[Ref]


class HeartbeatMessage(TypedDict):
    type: Literal["heartbeat"]


class ReactMessage(TypedDict):
    type: Literal["react"]
    reaction: str


class SeatMessage(TypedDict):
    type: Literal["seat"]
    seat: str
    ref: NotRequired[Ref]


CLIENT_MESSAGES: dict[str, type] = {
    "action": ActionMessage,
    "check": CheckMessage,
    "sync": SyncMessage,
    "next_deal": NextDealMessage,
    "hint": HintMessage,
    "take_choice": TakeChoiceMessage,
    "look_back": LookBackMessage,
    "heartbeat": HeartbeatMessage,
    "react": ReactMessage,
    "seat": SeatMessage,
}


def read_client_frame(text: str | None) -> tuple[dict[str, Any], Ref, str | None]:
    """(the message, its ref, None) of a client's text frame whose type is one of CLIENT_MESSAGES
    (its handler is `on_<type>`), else (…, the error code to answer: bad_message, bad_json,
    unknown_type). A `ref` that is not a string or a number is dropped."""
    if text is None:  # a binary frame
        return {}, None, "bad_message"
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
        return {}, None, "bad_json"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return {}, None, "bad_message"
    ref = message.get("ref")
    if not isinstance(ref, (str, int)) or isinstance(ref, bool):
        ref = None
    return message, ref, (None if message["type"] in CLIENT_MESSAGES else "unknown_type")


# ---------------------------------------------------------------- server -> client


class StateMessage(TypedDict):
    type: Literal["state"]
    v: int
    view: Any  # the seat's view (docs/VIEW.md); None in a lobby
    seat: str | None
    mode: str
    ranked: bool
    ranked_until: str | None
    lapsed: bool
    status: str
    level: str
    rules: dict[str, Any]
    seats: dict[str, str]
    names: dict[str, str | None]
    host: str | None
    awaiting: list[str]
    date: str | None
    code: str | None
    look_back: bool
    recent: NotRequired[list[dict[str, Any]]]
    play_again: NotRequired[dict[str, Any] | None]
    recap: NotRequired[dict[str, Any]]


class PatchMessage(TypedDict):
    type: Literal["patch"]
    v: int
    ops: list[dict[str, Any]]
    events: list[dict[str, Any]]
    ref: NotRequired[Ref]


class PresenceMessage(TypedDict):
    type: Literal["presence"]
    seats: dict[str, str]
    names: dict[str, Any]
    deadlines: dict[str, float]
    stand_ins: list[str]
    now: float | None


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: Ref
    rule: NotRequired[str]
    params: NotRequired[dict[str, Any]]


class NoticeMessage(TypedDict):
    type: Literal["notice"]
    code: str
    message: str


class CheckedMessage(TypedDict):
    type: Literal["checked"]
    ref: Ref
    ok: bool
    points: NotRequired[int]
    code: NotRequired[str | None]
    rule: NotRequired[str | None]
    params: NotRequired[dict[str, Any]]
    message: NotRequired[str]


class TakeChoiceAnswer(TypedDict):
    type: Literal["take_choice"]
    ref: Ref
    ok: bool
    action: NotRequired[dict[str, Any]]
    points: NotRequired[int]
    code: NotRequired[str | None]
    rule: NotRequired[str | None]
    params: NotRequired[dict[str, Any]]
    message: NotRequired[str]


class HintAnswer(TypedDict):
    type: Literal["hint"]
    action: dict[str, Any] | None
    step: dict[str, Any]
    ref: Ref


class LookBackAnswer(TypedDict):
    type: Literal["look_back"]
    deal: Any
    items: list[dict[str, Any]]
    ref: Ref


class ReactionMessage(TypedDict):
    type: Literal["reaction"]
    seat: str
    reaction: str


class PlayAgainMessage(TypedDict):
    type: Literal["play_again"]
    game: str
    url: str
    code: str | None
    by: str


SERVER_MESSAGES: tuple[type, ...] = (
    StateMessage,
    PatchMessage,
    PresenceMessage,
    ErrorMessage,
    NoticeMessage,
    CheckedMessage,
    TakeChoiceAnswer,
    HintAnswer,
    LookBackAnswer,
    ReactionMessage,
    PlayAgainMessage,
)


class Refusal(TypedDict):
    """The fields an engine refusal adds to a `checked` or `take_choice` answer."""

    code: str | None
    rule: str | None
    params: dict[str, Any]
    message: str


def error(
    code: str, message: str, ref: Ref = None, rule: str | None = None, params: dict[str, Any] | None = None
) -> ErrorMessage:
    reply = ErrorMessage(type="error", code=code, message=message, ref=ref)
    if rule:
        reply["rule"] = rule
    if params:
        reply["params"] = params
    return reply


def notice(code: str, message: str) -> NoticeMessage:
    return NoticeMessage(type="notice", code=code, message=message)


def checked(ref: Ref, points: int | None, refusal: Refusal | None) -> CheckedMessage:
    """A dry run's answer: its points when it works, else the refusal."""
    if refusal is None:
        return CheckedMessage(type="checked", ref=ref, ok=True, points=points or 0)
    return CheckedMessage(type="checked", ref=ref, ok=False, **refusal)


def take_choice(
    ref: Ref, action: dict[str, Any] | None, points: int | None, refusal: Refusal | None
) -> TakeChoiceAnswer:
    """The take the server found for Take pile with nothing selected, or why none works."""
    if refusal is None and action is not None:
        return TakeChoiceAnswer(type="take_choice", ref=ref, ok=True, action=action, points=points or 0)
    return TakeChoiceAnswer(
        type="take_choice", ref=ref, ok=False, **(refusal or Refusal(code=None, rule=None, params={}, message=""))
    )


def hint(step: dict[str, Any], ref: Ref) -> HintAnswer:
    first = step["actions"][0] if step["actions"] else None
    return HintAnswer(type="hint", action=first, step=step, ref=ref)


def look_back(deal: Any, items: list[Any], ref: Ref) -> LookBackAnswer:
    return LookBackAnswer(type="look_back", deal=deal, items=items, ref=ref)


def patch(v: int, ops: list[dict[str, Any]], events: list[dict[str, Any]], ref: Ref = None) -> PatchMessage:
    message = PatchMessage(type="patch", v=v, ops=ops, events=events)
    if ref is not None:
        message["ref"] = ref
    return message


def presence(room_presence: dict[str, Any]) -> PresenceMessage:
    """The wire `presence` of the room's `room.presence` (games.rooms.presence)."""
    return PresenceMessage(
        type="presence",
        seats=room_presence["seats"],
        names=room_presence.get("names", {}),
        deadlines=room_presence.get("deadlines", {}),
        stand_ins=room_presence.get("stand_ins", []),
        now=room_presence.get("now"),
    )


def reaction(seat: str, code: str) -> ReactionMessage:
    return ReactionMessage(type="reaction", seat=seat, reaction=code)


def play_again(offer: dict[str, Any]) -> PlayAgainMessage:
    return PlayAgainMessage(type="play_again", game=offer["game"], url=offer["url"], code=offer["code"], by=offer["by"])
