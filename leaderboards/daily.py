"""The daily game: one secret seed per UTC date, and the ranked result of a finished daily.

The seed is drawn with `secrets` the first time a date is used (or the day before: `commit_ahead`)
and stored in DailyDeal; it leaves the server only once the date is over (leaderboards.proof). A
finished ranked daily is scored only by replaying its stored moves with the engine (R59,
games.replay) from its initial position, which must be the deal of its date's seed: no
score from the client, the stored position or anywhere else counts.
A ranked daily counts only if its last move was stored by its date's deadline (games.daily_clock).
"""

import datetime
import logging
import secrets

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext

from games import daily_clock
from games.engine import Game as EngineGame
from games.engine.records import Position, Scores
from games.models import Game, Move
from games.replay import replay
from games.rooms.creation import solo_seats, start
from leaderboards import flags, par, wording
from leaderboards.boards import daily_rank, is_listed, refresh_record
from leaderboards.models import DailyDeal, Entry
from players.models import Player

BANNED_AT_FINISH = "player banned when the game finished"  # undone by an unban (moderation.py)

log = logging.getLogger(__name__)

HUMAN_SEAT = "S"  # the human of a daily sits South; the others are computer players
HUMAN_TEAM, OTHER_TEAM = "NS", "EW"


def today() -> datetime.date:
    """The current UTC date: the date whose daily deal is played now."""
    return datetime.datetime.now(datetime.UTC).date()


def daily_seed(date: datetime.date) -> int:
    """The seed of the date's daily deal, drawn once (63 random bits) and then fixed (R57)."""
    return deal_of(date).seed


def deal_of(date: datetime.date) -> DailyDeal:
    """The date's DailyDeal, made (seed, nonce and commitment) the first time it is asked for."""
    deal = DailyDeal.objects.filter(date=date).first()
    if deal is None:
        # get_or_create catches the IntegrityError of a concurrent creator and reads its row,
        # so two first players of a date always get the same seed.
        deal, created = DailyDeal.objects.get_or_create(date=date, defaults={"seed": secrets.randbits(63)})
        if created:
            par.schedule(date)  # the deals exist: their par is played off the request path
    return deal


def commit_ahead(date: datetime.date | None = None) -> None:
    """Make the deals of `date` (default today) and of the next day, so that the next day's
    commitment is published the day before it begins (docs/LEADERBOARDS.md)."""
    date = date or today()
    deal_of(date)
    deal_of(date + datetime.timedelta(days=1))


def dealt_from(seed: int) -> Position:
    """The position a game dealt from `seed` starts at (R57: every daily of a date is dealt so)."""
    return EngineGame.new(seed).to_position()


def daily_game(player: Player, level: str | None = None) -> tuple[Game, bool]:
    """The player's unfinished daily of today, else a new one (ranked only if it is the first).

    The room service's maker of the daily mode (registered in LeaderboardsConfig.ready); a daily
    is always played at the normal level, whatever `level` asks.
    """
    date = today()
    commit_ahead(date)
    with transaction.atomic():
        # Lock the player: two tabs opening the daily at once must not both get a ranked game.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        mine = Game.objects.select_for_update().filter(
            mode=Game.DAILY, daily_date=date, seats__S__player=str(player.id)
        )
        unfinished = mine.exclude(status=Game.FINISHED).order_by("created").first()
        if unfinished is not None:
            return unfinished, False
        ranked = not mine.exists()
        game = Game(
            mode=Game.DAILY,
            level="normal",
            daily_date=date,
            ranked=ranked,
            seed=daily_seed(date),
            seats=solo_seats(player, "normal"),
            host=player,
        )
        return start(game), True


def record_finished_daily(sender: object, game: Game, **kwargs: object) -> None:
    """games.signals.game_finished's receiver: a finished ranked daily gets its Entry."""
    on_game_finished(game)


def ranked_players(players: QuerySet[Player]) -> QuerySet[Player]:
    """games.keepers' hook: of the `players` to purge, those with a ranked entry stay (their
    results are on the boards)."""
    return players.filter(entries__isnull=False)


def replay_scores(game: Game, moves: list[Move]) -> Scores | None:
    """Replay the game's `moves` from its initial position; the scores if it is over."""
    replayed = replay(game, moves)
    if replayed.turn is not None:
        return None
    return replayed.scores()


def result_of(score: int, opponents_score: int) -> str:
    if score > opponents_score:
        return Entry.WON
    if score < opponents_score:
        return Entry.LOST
    return Entry.DRAW  # R56: equal totals are a draw


def human_player_id(game: Game) -> str | None:
    seat = (game.seats or {}).get(HUMAN_SEAT) or {}
    player: str | None = seat.get("player")
    return player


def on_game_finished(game: Game) -> Entry | None:
    """Write the Entry of a finished ranked daily game, from the server's replay of its moves.

    Called by the room service after the last move has committed. Idempotent: a second call for
    the same game returns the existing entry. Returns None when the game does not rank.
    """
    if getattr(game, "mode", None) != "daily" or not getattr(game, "ranked", False):
        return None
    existing = Entry.objects.filter(game_id=game.id).first()
    if existing is not None:
        return existing
    player_id = human_player_id(game)
    player = Player.objects.filter(pk=player_id).first() if player_id else None
    if player is None or game.daily_date is None:
        log.warning("daily game %s has no human player or date; not ranked", game.id)
        return None
    if int(game.seed) != daily_seed(game.daily_date) or game.initial_position != dealt_from(game.seed):
        log.error("daily game %s was not dealt from its date's seed; not ranked", game.id)
        return None
    moves = list(game.moves.order_by("seq"))
    if not moves or not daily_clock.counts_at(game.daily_date, moves[-1].created):
        log.info("daily game %s finished after its date's deadline; not ranked", game.id)
        return None
    scores = replay_scores(game, moves)
    if scores is None:
        log.warning("daily game %s is not over on replay; not ranked", game.id)
        return None
    return record_entry(player, game, game.daily_date, scores["totals"], moves)


def record_entry(
    player: Player, game: Game, date: datetime.date, totals: dict[str, int], moves: list[Move]
) -> Entry | None:
    score, opponents_score = int(totals[HUMAN_TEAM]), int(totals[OTHER_TEAM])
    entry = Entry(
        player=player,
        date=date,
        game_id=game.id,
        score=score,
        opponents_score=opponents_score,
        result=result_of(score, opponents_score),
        finished_at=moves[-1].created,
        network=player.last_network,
        start_network=flags.start_network(game.id),
        **flags.evidence(moves, HUMAN_SEAT),
        # A banned player's later results are kept for the moderators but never rank.
        hidden=player.banned,
        hidden_reason=BANNED_AT_FINISH if player.banned else "",
    )
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        # Another call recorded this game, or the player already ranks for this date.
        return Entry.objects.filter(game_id=game.id).first()
    flags.fill_openings(date)  # the date's other dailies' first moves, for the scouting flag
    refresh_record(player)
    return entry


def share_text(entry: Entry) -> str:
    """What a player can paste to friends, in the active language: date, score, result, the score
    against par (once the date has one) and rank; nothing of the deal."""
    results = {
        Entry.WON: gettext("Won %(score)s to %(opponents)s"),
        Entry.LOST: gettext("Lost %(score)s to %(opponents)s"),
        Entry.DRAW: gettext("Draw %(score)s to %(opponents)s"),
    }
    scores = {"score": wording.number(entry.score), "opponents": wording.number(entry.opponents_score)}
    parts = [results[entry.result] % scores]
    date_par = par.par_of(entry.date)
    if date_par is not None:
        parts.append(wording.against_par(entry.score - date_par))
    if is_listed(entry.player) and not entry.hidden:
        parts.append(gettext("rank %(rank)s") % {"rank": wording.number(daily_rank(entry.date, entry.score))})
    title = gettext("Foot Canasta daily %(date)s") % {"date": entry.date.isoformat()}
    return f"{title}\n{' · '.join(parts)}"


def date_is_closed(date: datetime.date) -> bool:
    """A date's games (their deals) may be shown once no ranked game of it can still count:
    after the end of the UTC date plus the grace (games.daily_clock)."""
    return daily_clock.is_closed(date)
