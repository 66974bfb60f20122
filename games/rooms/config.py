"""The room service's numbers: how long a seat may be gone, how often sockets beat, how long the
bots wait for a person's `next_deal`, and the pause between bot moves.

Read from the Django settings (server/settings.py declares each, with its default, from the
environment). Calls nothing else of the room service.
"""

from django.conf import settings


def setting(name: str) -> float:
    """A FOOT_* number of the room service, from the Django settings."""
    return float(getattr(settings, name))


def grace_seconds() -> float:
    return setting("FOOT_AWAY_GRACE_SECONDS")


def heartbeat_seconds() -> float:
    return setting("FOOT_HEARTBEAT_SECONDS")


def next_deal_timeout() -> float:
    return setting("FOOT_NEXT_DEAL_TIMEOUT")


def bot_delay() -> float:
    # A short pause between bot moves lets a person follow them; tests set it to 0.
    return setting("FOOT_BOT_DELAY")
