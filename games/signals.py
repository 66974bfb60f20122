"""What the games app announces to the apps built on it; they connect in their AppConfig.ready().

games never imports those apps: leaderboards, for one, hears here that a game ended and ranks it.
"""

from django.dispatch import Signal

# Sent with `game` (a games.models.Game) once the move that finished it has committed, and again
# whenever someone opens a finished game (in case the process died in between): a receiver must
# be idempotent. A receiver's exception is logged; the finished game stands.
game_finished = Signal()

# Sent by purge_games with `players`, a queryset of the players it is about to delete (made long
# ago, with no seat in any game). Each receiver answers the queryset of those its app still needs;
# they are kept. games knows only its own reasons to keep a player (a seat); leaderboards keeps a
# player with a ranked entry this way.
purging_players = Signal()
