"""The stored player: anonymous, bound to a session cookie (players.identity), with an optional
nickname (set through leaderboards.nicknames, needed only to appear on a board).

The table keeps the name it had when the model lived in leaderboards (`leaderboards_player`):
the move to this app changed Django's state only (players/migrations/0001_initial.py).
"""

import uuid

from django.db import models


class Player(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # NULL, not "", when there is none: the API answers `"nickname": null` and the code reads
    # `player.nickname or …`; changing it would change what clients get.
    nickname = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    # The folded form of the nickname (leaderboards.nicknames.nickname_key): unique, so that
    # "Anna", "ANNA" and "Аnna" (Cyrillic А) cannot be two players.
    nickname_key = models.CharField(max_length=200, null=True, blank=True, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    banned = models.BooleanField(default=False)
    # SHA-256 of the personal link's secret: the secret itself is shown once and never stored.
    link_token = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)
    # When that link was made: it works once, within players.identity.LINK_LIFETIME.
    link_issued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # HMAC of the player's last network (players.identity.network_hash), never the address.
    last_network = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)

    class Meta:
        db_table = "leaderboards_player"
        permissions = [("ban_player", "Can ban and unban players")]

    def __str__(self) -> str:
        return self.nickname or f"Anonymous {str(self.id)[:8]}"

    @property
    def display_name(self) -> str:
        return self.nickname or "Anonymous"
