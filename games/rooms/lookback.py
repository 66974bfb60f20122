"""The look back after a deal (issue #14 item 6): who may ask for it, the deal's moves read back
from the move log, the search run off the event loop in a pool of its own, and the answer kept
once per (game, deal, seat).

Only a seated player, for their own seat, for a deal that is over; never in a daily before its date
is over (its deals are everyone's deals that day, as for watching: games.rooms.daily_play). The
search (games.bots.lookback) runs in its own small process pool (games.rooms.bot_runner's
`look_back_pool`: FOOT_LOOKBACK_WORKERS, at a lower CPU priority), so a look back never holds this
process's interpreter and never takes a worker from the bots' moves; at most FOOT_LOOKBACK_QUEUE of
them wait per process, more are refused with `look_back_busy`. Each player holds at most
FOOT_LOOKBACK_PER_PLAYER of those places (more: `look_back_yours_waiting`) and each network (the
player's last, players.identity) at most FOOT_LOOKBACK_PER_NETWORK (more: `look_back_busy`), so no
one fills the queue for everyone (issue 24, finding 7). The search waits while the machine's CPUs
are busy with moves (FOOT_LOOKBACK_BUSY); a player who waited FOOT_LOOKBACK_WAIT seconds is told
`look_back_later` while it goes on. The answer is a LookBack row: asking again, on any process,
reads it. Every refusal changes nothing.

May call games.models, players.models and .limits, games.replay and the room modules bot_runner, stored, daily_play,
database_threads and errors. Whether the page offers it is games.rooms.seat_views' to say.
"""

import asyncio
from typing import Any

from django.conf import settings
from django.db import IntegrityError

from games.models import Game, LookBack
from games.replay import initial_game
from games.rooms import bot_runner
from games.rooms.daily_play import deals_still_secret, hint_allowed
from games.rooms.database_threads import database_call
from games.rooms.errors import RoomError
from games.rooms.metrics import LOOKBACK_QUEUE, REFUSALS
from games.rooms.stored import load
from players.limits import network_factor
from players.models import Player

DEALS = 4
_running: dict[tuple[str, int, str], asyncio.Future[list[Any]]] = {}  # asked and not yet answered, in this process
_askers: dict[tuple[str, int, str], tuple[str, str]] = {}  # the same keys: (player id, network hash)


def deal_number(value: object) -> int:
    """The deal a message names: an integer 1 to 4 (anything else: `look_back_bad_deal`)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= DEALS:
        raise RoomError("look_back_bad_deal")
    return value


def refusal(game: Game | None, seat: str | None, deal: int) -> str | None:
    """Why `seat` may not look back at `deal` of `game` now, as a code; None when it may."""
    if game is None:
        return "not_found"
    if not seat or seat not in game.human_seats():
        return "not_seated"
    if game.position is None:
        return "not_started"
    if deals_still_secret(game):
        return "look_back_daily_later"
    current, over = game.position["deal"], game.position.get("phase") == "over"
    if deal == current and not over:
        return "look_back_deal_not_over"
    if deal > current:
        return "look_back_bad_deal"
    return None  # a deal the game never played (it started later) has no moves: look_back_bad_deal


def stored_items(game_id: str, seat: str, deal: int) -> list[Any] | None:
    row = LookBack.objects.filter(game_id=game_id, deal=deal, seat=seat).only("items").first()
    items: list[Any] | None = None if row is None else row.items
    return items


def checked(game_id: str, seat: str | None, deal: int) -> tuple[Game, list[Any] | None, tuple[str, str]]:
    """In a database thread: the game, once the seat may look back at the deal (else RoomError),
    the stored answer if there is one, and who asks (the seat's player and their last network)."""
    game = load(game_id)
    code = refusal(game, seat, deal)
    if code is not None:
        raise RoomError(code, status=404 if code == "not_found" else 403)
    assert game is not None and seat is not None
    items = stored_items(str(game.id), seat, deal)
    player_id = game.seats[seat]["player"]
    return game, items, (player_id, "" if items is not None else last_network(player_id))


def last_network(player_id: str) -> str:
    return Player.objects.filter(pk=player_id).values_list("last_network", flat=True).first() or ""


def share_refusal(asker: tuple[str, str]) -> str | None:
    """Why this player may not start one more search now (their share, their network's, the
    process's queue), as a code; None when there is room."""
    player_id, network = asker
    if len(_running) >= int(settings.FOOT_LOOKBACK_QUEUE):
        return "look_back_busy"
    if sum(held == player_id for held, _ in _askers.values()) >= int(settings.FOOT_LOOKBACK_PER_PLAYER):
        return "look_back_yours_waiting"
    network_share = settings.FOOT_LOOKBACK_PER_NETWORK * network_factor()  # bench_load: one address, many players
    if network and sum(held == network for _, held in _askers.values()) >= network_share:
        return "look_back_busy"
    return None


def deal_moves(game: Game, seat: str, deal: int) -> dict[str, Any]:
    """In a database thread: the position `deal` started from, its moves in order, and which of
    `seat`'s moves the computer made for it (they carry a bot's reason: a friend was away; a
    person's never do)."""
    replayed = initial_game(game)
    start: dict[str, Any] | None = None
    moves: list[tuple[str, dict[str, Any]]] = []
    computer: list[int] = []
    # Plain rows: model instances from the reverse manager with only() would each read their
    # deferred game_id back, one query a move (docs/journal/PERFORMANCE-2026.md, session 9).
    for mover, action, reason in game.moves.order_by("seq").values_list("seat", "action", "reason"):
        if replayed.deal > deal or replayed.turn is None:
            break
        if replayed.deal == deal:
            if start is None:
                start = replayed.to_position()
            if mover == seat and reason is not None:
                computer.append(len(moves))
            moves.append((mover, action))
        replayed.apply(mover, action)
    if start is None:
        raise RoomError("look_back_bad_deal")
    return {"start": start, "moves": moves, "computer": computer, "seed": game.seed, "hints": hint_allowed(game)}


def save(game_id: str, seat: str, deal: int, answer: dict[str, Any]) -> list[Any]:
    """Keep the answer; if another process stored one meanwhile, that one is the answer."""
    try:
        row, _ = LookBack.objects.get_or_create(
            game_id=game_id, deal=deal, seat=seat, defaults={"items": answer["items"], "rollouts": answer["rollouts"]}
        )
    except IntegrityError:  # the other process's insert won between the get and the create
        row = LookBack.objects.get(game_id=game_id, deal=deal, seat=seat)
    items: list[Any] = row.items
    return items


async def look_back(game_id: str, seat: str | None, deal: object) -> list[Any]:
    """The items of `seat`'s look back at `deal` (games.bots.lookback), computed once. The checks
    and the stored answer come first; a search is read out of the move log only once there is
    room for it, so a refused ask (`look_back_busy`) costs one read of the game."""
    deal = deal_number(deal)
    game, items, asker = await database_call(checked)(game_id, seat, deal)
    if items is not None:
        return items
    assert seat is not None
    key = (str(game_id), deal, seat)
    task = _running.get(key)  # the same seat asked twice (two tabs, or again later): one search
    if task is None:
        code = share_refusal(asker)
        if code is not None:
            REFUSALS.labels(code).inc()
            raise RoomError(code, status=503)
        _askers[key] = asker
        task = _running[key] = asyncio.ensure_future(_search_and_save(game, seat, deal))
        LOOKBACK_QUEUE.inc()
        task.add_done_callback(lambda _: answered(key))
    try:
        return await asyncio.wait_for(asyncio.shield(task), float(settings.FOOT_LOOKBACK_WAIT))
    except TimeoutError:
        # The machine is busy with moves (the search waits for idle CPU): the player is told so,
        # and the search goes on; when it is done, the next ask reads the stored answer.
        raise RoomError("look_back_later", status=503) from None


def answered(key: tuple[str, int, str]) -> None:
    _running.pop(key, None)
    _askers.pop(key, None)
    LOOKBACK_QUEUE.dec()


async def _search_and_save(game: Game, seat: str, deal: int) -> list[Any]:
    ready = await database_call(deal_moves)(game, seat, deal)
    answer = await bot_runner.think_back(
        ready["start"], ready["moves"], seat, ready["seed"], ready["computer"], ready["hints"]
    )
    return await database_call(save)(str(game.id), seat, deal, answer)
