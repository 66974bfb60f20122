"""games.protocol is the one home of the websocket protocol: docs/PROTOCOL.md names every message
type and field it declares, in both directions, and the consumer reaches no handler but those of
its client messages."""

import re
from pathlib import Path

import pytest

from games import protocol
from games.consumers import GameConsumer

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


def websocket_section() -> str:
    text = PROTOCOL_MD.read_text()
    return text[text.index("## Websocket `/ws/game/<id>/`") : text.index("## Echo socket")]


def named(word: str, text: str) -> bool:
    """Whether the docs name `word` as a JSON key ("word") or in code (`word`, `{"word"…`)."""
    return bool(re.search(rf'"{re.escape(word)}"|`{re.escape(word)}`', text))


MESSAGES = [*protocol.CLIENT_MESSAGES.values(), *protocol.SERVER_MESSAGES]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda message: message.__name__)
def test_protocol_md_names_every_message_and_field(message):
    section = websocket_section()
    (kind,) = message.__annotations__["type"].__args__
    assert f'"type": "{kind}"' in section, f"docs/PROTOCOL.md shows no {kind!r} message"
    missing = [field for field in message.__annotations__ if not named(field, section)]
    assert not missing, f"docs/PROTOCOL.md does not name {missing} of {kind!r}"


def test_every_client_type_has_its_handler_and_nothing_else_is_reachable():
    for kind in protocol.CLIENT_MESSAGES:
        assert callable(getattr(GameConsumer, f"on_{kind}"))
    for frame in ('{"type": "room.refresh"}', '{"type": "__init__"}', '{"type": "send_state"}'):
        assert protocol.read_client_frame(frame)[2] == "unknown_type"
    assert protocol.read_client_frame('{"type": "sync", "ref": true}') == ({"type": "sync", "ref": True}, None, None)
    assert protocol.read_client_frame("[1]")[2] == "bad_message"
    assert protocol.read_client_frame("{oops")[2] == "bad_json"
    assert protocol.read_client_frame(None)[2] == "bad_message"


def js_list(text: str, name: str) -> list[str]:
    body = re.search(rf"export const {name} = Object\.freeze\(\[(.*?)\]\);", text, re.S)
    assert body, f"static/foot/protocol.js has no {name}"
    return re.findall(r'"([a-z_]+)"', body.group(1))


def test_the_clients_names_are_the_servers():
    text = (PROTOCOL_MD.parents[1] / "static" / "foot" / "protocol.js").read_text()
    server_types = [message.__annotations__["type"].__args__[0] for message in protocol.SERVER_MESSAGES]
    assert js_list(text, "CLIENT_TYPES") == list(protocol.CLIENT_MESSAGES)
    assert js_list(text, "SERVER_TYPES") == server_types
    codes = dict(re.findall(r"export const (CLOSE_[A-Z_]+) = (\d+);", text))
    assert codes.pop("CLOSE_REFUSED") == str(protocol.CLOSE_BANNED)
    assert codes == {name: str(getattr(protocol, name)) for name in codes}
