"""What the end of a ranked daily tells its own player: the score, the par, the rank, and whether
they are on the board.

The game-over dialog asks this (GET /api/daily/result/<game_id>) once the entry is written. A rank
is told only when it is true: the player is on the board (a nickname, not banned, the entry not
hidden). A player without a nickname is "unnamed" (the dialog offers the nickname form); a banned
player, or an entry a moderator hid, is "hidden" (the dialog says the results are hidden and
offers nothing).
"""

from leaderboards import wording
from leaderboards.boards import daily_rank, is_listed
from leaderboards.daily import share_text
from leaderboards.models import Entry
from leaderboards.par import par_of

LISTED, UNNAMED, HIDDEN = "listed", "unnamed", "hidden"


def standing(entry: Entry) -> str:
    player = entry.player
    if player.banned or entry.hidden:
        return HIDDEN
    return LISTED if is_listed(player) else UNNAMED


def daily_result(entry: Entry) -> dict[str, object]:
    where = standing(entry)
    par = par_of(entry.date)  # an entry exists once its player finished: the par is theirs to see
    return {
        "game_id": str(entry.game_id),
        "date": entry.date.isoformat(),
        "score": entry.score,
        "opponents_score": entry.opponents_score,
        "result": entry.result,
        "par": par,
        "against_par": entry.score - par if par is not None else None,
        "against_par_text": wording.against_par(entry.score - par) if par is not None else None,
        "standing": where,
        "rank": daily_rank(entry.date, entry.score) if where == LISTED else None,
        "nickname": entry.player.nickname if where == LISTED else None,
        "board": f"/leaderboard/{entry.date.isoformat()}/",
        "text": share_text(entry),
    }
