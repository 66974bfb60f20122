"""What the games app announces to the apps built on it; they connect in their AppConfig.ready().

games never imports those apps: leaderboards, for one, hears here that a game ended and ranks it.
"""

from django.dispatch import Signal

# Sent with `game` (a games.models.Game) once the move that finished it has committed, and again
# whenever someone opens a finished game (in case the process died in between): a receiver must
# be idempotent. A receiver's exception is logged; the finished game stands.
game_finished = Signal()

# Sent with `game` (just made by POST /api/games, any mode), `network` and `session` (the keyed
# hashes of players.identity, never an address or a cookie) once the game is stored: leaderboards
# keeps who started each daily, for the moderators' scouting flag.
game_created = Signal()
