"""Stored games: the Game row (initial position, current position, version) and its Move log.

A game is replayable from `initial_position` and its moves in `seq` order (`replay`). Only
games.rooms writes these rows; a Move is never updated or deleted while its game exists.
"""

import secrets
import uuid
from typing import Any, TypeAlias

from django.db import models

from games import engine

# A game's or a player's key as the room service receives it: the text of a URL or a message, or
# the model's UUID (each is turned into the other where it is looked up).
GameId: TypeAlias = str | uuid.UUID
PlayerId: TypeAlias = str | uuid.UUID

SEATS = ("S", "W", "N", "E")
SPECTATOR = ""  # the seat of a Presence row whose socket watches (one empty value, not also NULL)
LEVELS = ("easy", "normal", "hard")
# Invite codes avoid look-alike characters (0/O, 1/I/L) so a friend can type one.
INVITE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
INVITE_LENGTH = 6


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def new_seed() -> int:
    return secrets.randbits(62)


class Game(models.Model):
    SOLO, DAILY, FRIENDS = "solo", "daily", "friends"
    MODES = [(SOLO, "solo"), (DAILY, "daily"), (FRIENDS, "friends")]
    # Learn to play (games.rooms.lesson_room, registered in GamesConfig.ready): unranked, on no
    # board. Kept out of MODES, whose choices only the admin reads, so it needs no migration.
    LESSON = "lesson"
    LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
    STATUSES = [(LOBBY, "lobby"), (PLAYING, "playing"), (FINISHED, "finished")]

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    seed = models.BigIntegerField(default=new_seed)
    mode = models.CharField(max_length=8, choices=MODES)
    daily_date = models.DateField(null=True, blank=True)
    ranked = models.BooleanField(default=False)
    # A ranked daily still played after its date's deadline (games.daily_clock): no longer ranked,
    # and this says why (the table tells the player so; games.rooms.daily_play).
    lapsed = models.BooleanField(default=False)
    level = models.CharField(max_length=8, default="normal")
    # The game's house rules as POST /api/games took them (docs/RULES.md §17); {} is the standard
    # rules, and every game made before house rules existed is one.
    rules = models.JSONField(default=dict, blank=True)
    # For each of S W N E: {"player": "<uuid>"} or {"bot": "<level>"}; absent while a lobby seat is free.
    seats = models.JSONField(default=dict)
    host = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="hosted_games"
    )
    invite_code = models.CharField(max_length=12, unique=True, null=True, blank=True)
    # A friends lobby opened by "Play again" at the end of this game: the one its players are offered
    # (games.rooms.rematch), where each of them gets their old seat back.
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches", editable=False
    )
    status = models.CharField(max_length=8, choices=STATUSES, default=LOBBY)
    version = models.IntegerField(default=0)
    initial_position = models.JSONField(null=True, blank=True)
    position = models.JSONField(null=True, blank=True)
    # Human seats whose "next_deal" the bots wait for after a deal ended, and since when.
    awaiting = models.JSONField(default=list, blank=True)
    awaiting_since = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Not indexed: a move changes `updated`, and a changed indexed column makes PostgreSQL write a
    # new entry in every index of the row; with none changed a move is a HOT update (one heap
    # write, docs/ROOMS.md). The purge finds unfinished games through the status index.
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["mode", "daily_date"], name="game_mode_daily_date"),
            models.Index(fields=["status"], name="game_status"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} game {self.id} ({self.status}, v{self.version})"

    def engine_rules(self) -> engine.Rules:
        """The game's rules for the engine (validated when the game was made)."""
        return engine.Rules.from_json(self.rules or {})

    def rules_json(self) -> dict[str, Any]:
        """Every rule of the game with its value, as `state` and the API give them."""
        return self.engine_rules().to_json()

    def seat_of(self, player_id: PlayerId | None) -> str | None:
        """The seat held by the player, or None (a spectator)."""
        wanted = str(player_id) if player_id is not None else None
        for seat in SEATS:
            if wanted and (self.seats.get(seat) or {}).get("player") == wanted:
                return seat
        return None

    def human_seats(self) -> list[str]:
        return [seat for seat in SEATS if "player" in (self.seats.get(seat) or {})]

    def bot_level(self, seat: str) -> str | None:
        return (self.seats.get(seat) or {}).get("bot")


class Move(models.Model):
    """One applied action: the log that replays a game. Append-only."""

    # No index of its own: the unique (game, seq) index serves every lookup by game (one index
    # fewer to write per move).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.IntegerField()  # the game's version after this move: 1, 2, 3, ...
    seat = models.CharField(max_length=1)
    action = models.JSONField()
    # a computer move's reason (games.bots.reasons: a code and params, only what every seat sees)
    reason = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_move_per_game_version")]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.seat} {self.action.get('type')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("moves are append-only")
        super().save(*args, **kwargs)


class Presence(models.Model):
    """One open websocket of a game, refreshed by its consumer; stale rows mean a gone player.

    Kept in the database (not in a worker's memory) so every Daphne process sees who is there,
    and a killed process's connections simply age out.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    seat = models.CharField(max_length=1, blank=True, default=SPECTATOR)  # SPECTATOR: a watcher's socket
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(db_index=True)
    # False once the socket closed: the row then keeps the time its player was last there.
    connected = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat or 'spectator'} {self.channel_name}"


class StandIn(models.Model):
    """A friend's seat the computer has moved for while its player was away.

    The computer then plays that seat to the end of the turn even if the player comes back in
    the middle of it (the player takes over at their next turn); the row goes when the turn ends.
    In the database, so every process decides alike.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="stand_ins")
    seat = models.CharField(max_length=1)
    since = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_stand_in_per_seat")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat} played by the computer"


class LookBack(models.Model):
    """The look back of one seat at one finished deal (games.rooms.lookback), worked out once.

    In the database, so that asking again, from any process, costs a read, not another search.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="look_backs")
    deal = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1)
    items = models.JSONField(default=list)  # games.bots.lookback's items, as sent
    rollouts = models.IntegerField(default=0)  # what the search spent (docs/BOTS.md)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "deal", "seat"], name="one_look_back_per_seat_deal")]

    def __str__(self) -> str:
        return f"{self.game_id} deal {self.deal} {self.seat}: {len(self.items)} items"
