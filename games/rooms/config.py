"""The room service's numbers: how long a seat may be gone, how often sockets beat, how long the
bots wait for a person's `next_deal`, and the pause between bot moves.

Read from the Django settings, else the environment, else the default. Calls nothing else of
the room service.
"""
import os

from django.conf import settings


def setting(name: str, default: float) -> float:
    """A FOOT_* number from the Django settings, else the environment, else the default."""
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name, default)
    return float(value)


def grace_seconds() -> float:
    return setting("FOOT_GRACE_SECONDS", 60)


def heartbeat_seconds() -> float:
    return setting("FOOT_HEARTBEAT_SECONDS", 10)


def next_deal_timeout() -> float:
    return setting("FOOT_NEXT_DEAL_TIMEOUT", 30)


def bot_delay() -> float:
    # A short pause between bot moves lets a person follow them; tests set it to 0.
    return setting("FOOT_BOT_DELAY", 0.3)
