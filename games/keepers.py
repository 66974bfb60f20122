"""Which idle players purge_games must keep besides those seated in a game.

An app built on games that stores something of a player registers, in its AppConfig.ready(), a
function that picks, from the players about to be purged, those it still needs (leaderboards: a
player with a ranked entry). games knows none of those apps; they know games. A hook rather than
a signal: its answer is a queryset the purge uses, and a keeper that fails stops the purge
instead of letting it delete players some app still needs.
"""

from collections.abc import Callable

from django.db.models import QuerySet

from players.models import Player

PlayerKeeper = Callable[[QuerySet[Player]], QuerySet[Player]]

_keepers: dict[str, PlayerKeeper] = {}


def register_player_keeper(app: str, keeper: PlayerKeeper) -> None:
    """`keeper(players)` answers those of `players` that `app` still needs (registering again replaces)."""
    _keepers[app] = keeper


def without_kept(players: QuerySet[Player]) -> QuerySet[Player]:
    """`players` less those some registered app still needs."""
    for keeper in _keepers.values():
        players = players.exclude(pk__in=keeper(players).values("pk"))
    return players
