"""Events as each seat may know them: another seat's drawn cards are hidden, only their count shown."""

from __future__ import annotations

from games.engine.records import Event


def redact_events(events: list[Event], seat: str | None) -> list[Event]:
    """The events as `seat` may see them (None: a spectator)."""
    redacted = []
    for event in events:
        if event["type"] == "draw" and event["seat"] != seat:
            redacted.append({k: v for k, v in event.items() if k != "cards"})
        else:
            redacted.append(event)
    return redacted
