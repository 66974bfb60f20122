"""Moderation: hide an entry, ban a player, and undo both; each writes a ModerationAction.

The admin's actions call these functions, so the rules live in one place: a ban takes the
player off every board at once (boards skip banned players), blocks their nickname (the key stays
taken and they cannot choose another) and keeps their later dailies from ranking (recorded
hidden); unbanning restores exactly what the ban took away.
"""

from django.contrib.auth.models import User
from django.db import transaction

from leaderboards.boards import refresh_record
from leaderboards.daily import BANNED_AT_FINISH
from leaderboards.models import Entry, ModerationAction
from players.models import Player


def log_action(moderator: User, action: str, target: str, reason: str) -> ModerationAction:
    return ModerationAction.objects.create(moderator=moderator, action=action, target=target, reason=reason[:200])


def hide_entry(entry: Entry, moderator: User, reason: str) -> None:
    with transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(hidden=True, hidden_reason=reason[:200])
        log_action(moderator, ModerationAction.HIDE_ENTRY, f"entry:{entry.game_id}", reason)
    refresh_record(entry.player)


def unhide_entry(entry: Entry, moderator: User, reason: str = "") -> None:
    with transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(hidden=False, hidden_reason="")
        log_action(moderator, ModerationAction.UNHIDE_ENTRY, f"entry:{entry.game_id}", reason)
    refresh_record(entry.player)


def ban_player(player: Player, moderator: User, reason: str) -> None:
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(banned=True)
        log_action(moderator, ModerationAction.BAN_PLAYER, f"player:{player.pk}", reason)
    refresh_record(player)


def unban_player(player: Player, moderator: User, reason: str = "") -> None:
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(banned=False)
        Entry.objects.filter(player=player, hidden=True, hidden_reason=BANNED_AT_FINISH).update(
            hidden=False, hidden_reason=""
        )
        log_action(moderator, ModerationAction.UNBAN_PLAYER, f"player:{player.pk}", reason)
    refresh_record(player)
