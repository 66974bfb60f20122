"""Events as each seat may know them: another seat's drawn cards are hidden, only their count shown."""

from __future__ import annotations


def redact_events(events: list[dict], seat: str | None) -> list[dict]:
    """The events as `seat` may see them (None: a spectator)."""
    redacted = []
    for event in events:
        if event["type"] == "draw" and event["seat"] != seat:
            redacted.append({k: v for k, v in event.items() if k != "cards"})
        else:
            redacted.append(event)
    return redacted
