"""Stored data of the leaderboards: daily deals, ranked entries, moderation, players' records.

The players themselves are players.models.Player (a nickname is only needed to appear on a
board). A DailyDeal stores one secret seed per UTC date and its published commitment. An Entry is the one ranked
result of a player for a date, written only by `leaderboards.daily.on_game_finished` from the
server's own replay. A ModerationAction records every moderator's decision.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from leaderboards import commitment
from players.models import Player


class DailyDeal(models.Model):
    """The seed of one UTC date's daily game: drawn once with `secrets`, never changed.

    Its commitment (leaderboards.commitment) is published from the day before the date; the
    seed and the nonce only once the date is over. `par` is the score of computer players in all
    four seats on the date's deals (leaderboards.par), computed once off the request path.
    """

    date = models.DateField(unique=True)
    seed = models.BigIntegerField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    nonce = models.CharField(max_length=64, editable=False, default="")
    commitment = models.CharField(max_length=64, editable=False, default="")
    # When the commitment was made: with the seed for every deal since, at the migration for the
    # deals older than the scheme (their created_at is not when they were committed).
    committed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The NS total of computer players in all four seats on the date's deals (leaderboards.par);
    # null until it is computed. par_started_at: when a worker claimed it (computed once).
    par = models.IntegerField(null=True, blank=True, editable=False)
    par_started_at = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return f"Daily deal {self.date.isoformat()}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every deal gets its nonce and commitment when it is made, however it is made.
        if not self.nonce:
            self.nonce = commitment.new_nonce()
        if not self.commitment:  # once published, it never changes
            self.commitment = commitment.commitment_of(self.date, self.seed, self.nonce)
            self.committed_at = timezone.now()
        super().save(*args, **kwargs)


class Entry(models.Model):
    """One ranked daily result: the score of the player's team, from the server's replay."""

    WON, LOST, DRAW = "won", "lost", "draw"
    RESULTS = [(WON, "won"), (LOST, "lost"), (DRAW, "draw")]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="entries")
    date = models.DateField()
    game_id = models.UUIDField(unique=True)
    score = models.IntegerField()
    opponents_score = models.IntegerField()
    result = models.CharField(max_length=4, choices=RESULTS)
    finished_at = models.DateTimeField()
    # The player's network when the game finished, for the admin's shared-network flag.
    network = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)
    hidden = models.BooleanField(default=False)
    hidden_reason = models.CharField(max_length=200, blank=True, default="")
    # Evidence for the moderators' flags (leaderboards.flags): a digest of the player's first
    # moves, how many moves they made, and the median time they took to answer the move before.
    opening_digest = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)
    seat_moves = models.IntegerField(default=0, editable=False)
    median_seconds = models.FloatField(null=True, blank=True, editable=False)
    # For the scouting flag (leaderboards.flags): the network the game was started from, and a
    # digest of the player's first SCOUT_MOVES moves, matched against the date's DailyStart rows.
    start_network = models.CharField(max_length=64, blank=True, default="", editable=False)
    scout_opening = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        verbose_name_plural = "entries"
        permissions = [("hide_entry", "Can hide and unhide entries")]
        constraints = [
            models.UniqueConstraint(fields=["player", "date"], name="one_entry_per_player_and_date"),
        ]
        indexes = [
            # The daily board: the visible entries of a date, best first.
            models.Index(fields=["date", "-score", "finished_at"], name="entry_daily_board", condition=Q(hidden=False)),
            # The week and all-time boards group a player's visible entries.
            models.Index(fields=["player", "date"], name="entry_player_visible", condition=Q(hidden=False)),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.date.isoformat()} {self.score}"


class ModerationAction(models.Model):
    """A moderator's decision: who did what to which entry or player, when and why."""

    HIDE_ENTRY, UNHIDE_ENTRY, BAN_PLAYER, UNBAN_PLAYER = "hide_entry", "unhide_entry", "ban_player", "unban_player"
    ACTIONS = [
        (HIDE_ENTRY, "hide entry"),
        (UNHIDE_ENTRY, "unhide entry"),
        (BAN_PLAYER, "ban player"),
        (UNBAN_PLAYER, "unban player"),
    ]

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20, choices=ACTIONS)
    target = models.CharField(max_length=200, help_text="e.g. entry:<game id> or player:<player id>")
    reason = models.CharField(max_length=200, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.moderator} {self.action} {self.target}"


class PlayerRecord(models.Model):
    """A player's all-time figures over their visible entries, kept by leaderboards.boards.

    Derived data only (rebuilt from Entry by `refresh_record` / `rebuild_records`): it lets the
    all-time board read a few indexed rows instead of aggregating every entry ever played.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="record")
    # On the boards: has a nickname and is not banned.
    listed = models.BooleanField(default=False)
    games = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    total = models.BigIntegerField(default=0)
    best = models.IntegerField(default=0)
    average = models.FloatField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["-best", "-average", "player"],
                name="record_all_time_board",
                condition=Q(listed=True, games__gt=0),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.games} games, best {self.best})"


class DailyStart(models.Model):
    """Who started a daily game — any, ranked or not, finished or not — as keyed hashes (never an
    address), for the scouting flag: a ranked run can be prepared by playing the same deal first
    from another cookie jar and dropping it unfinished (issue 24, finding 4)."""

    game_id = models.UUIDField(unique=True)  # no foreign key: the evidence outlives a purged game
    date = models.DateField(db_index=True)
    player_id = models.UUIDField()
    ranked = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    network = models.CharField(max_length=64, blank=True, default="", db_index=True)
    session = models.CharField(max_length=64, blank=True, default="")
    # The digest of the player's first flags.SCOUT_MOVES moves, once they were played (filled
    # when a ranked entry of the date is recorded: leaderboards.flags.fill_openings).
    opening_digest = models.CharField(max_length=64, blank=True, default="", db_index=True)

    def __str__(self) -> str:
        return f"daily {self.date.isoformat()} {self.game_id}"
