"""Undo within a turn through the websocket (docs/RULES.md V7, docs/PROTOCOL.md): a move like any
other (one version, patches, an `undo` event), the seat's options saying when it is possible, and
its refusals with their codes and messages, changing nothing."""

import pytest
from channels.db import database_sync_to_async

from games.engine import Game as EngineGame
from games.engine import Rules
from games.models import Game, Move
from games.rooms.creation import prepared_game
from players.models import Player
from tests.engine.helpers import position
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import communicator, receive, session_cookie

from .test_consumer import Follower

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MELD = {"type": "meld", "groups": [{"cards": ["9C", "9S", "9H"]}]}
UNDO = {"type": "undo"}


def game_melding(undo: bool) -> tuple[Game, str]:
    """A solo game where South, having drawn, holds a meld of nines; undo as the table chose."""
    player = Player.objects.create()
    start = position(hands={"S": "9C 9S 9H 4H KD"}, phase="play", turn="S", melds={"NS": ["AC AD AH"]})
    if undo:
        start["rules"] = Rules(undo=True).to_json()
    return prepared_game(player, start, [], "easy", {}), session_cookie(player)


async def test_an_undo_is_one_version_with_patches_and_its_event():  # V7
    game, cookie = await database_sync_to_async(game_melding)(True)
    comm = communicator(game.id, cookie)
    await comm.connect()
    me = Follower(comm)
    state = await me.start()
    assert state["rules"]["undo"] is True and me.opened_view()["options"]["undo"] is False
    before = me.opened_view()
    await comm.send_json_to({"type": "action", "action": MELD, "v": me.version, "ref": "m"})
    await me.next_patch()
    assert me.opened_view()["options"]["undo"] is True  # the page enables Undo from this
    await comm.send_json_to({"type": "action", "action": UNDO, "v": me.version, "ref": "u"})
    undone = await me.next_patch()
    assert undone["ref"] == "u" and undone["v"] == 2
    assert undone["events"] == [{"type": "undo", "seat": "S", "team": "NS", "cards": ["9C", "9S", "9H"]}]
    view = me.opened_view()
    assert view["hand"] == before["hand"] and view["melds"] == before["melds"]
    assert view["options"]["undo"] is False
    await comm.send_json_to({"type": "action", "action": UNDO, "v": me.version, "ref": "again"})
    refused = await receive(comm, "error")
    assert refused["code"] == "nothing_to_undo" and refused["ref"] == "again"
    assert "Nothing to undo" in refused["message"]
    await comm.disconnect()
    stored = await database_sync_to_async(lambda: list(Move.objects.filter(game_id=game.id).order_by("seq")))()
    assert [move.action for move in stored] == [MELD, UNDO]  # the log replays the game exactly
    row = await database_sync_to_async(Game.objects.get)(pk=game.id)
    replayed = EngineGame.from_position(row.initial_position)
    for move in stored:
        replayed.apply(move.seat, move.action)
    assert replayed.to_position() == row.position


async def test_a_table_without_undo_refuses_it_and_changes_nothing():  # V7: the daily's rules too
    game, cookie = await database_sync_to_async(game_melding)(False)
    comm = communicator(game.id, cookie)
    await comm.connect()
    me = Follower(comm)
    state = await me.start()
    assert state["rules"]["undo"] is False
    await comm.send_json_to({"type": "action", "action": MELD, "v": me.version, "ref": "m"})
    await me.next_patch()
    assert me.opened_view()["options"]["undo"] is False
    await comm.send_json_to({"type": "action", "action": UNDO, "v": me.version, "ref": "u"})
    refused = await receive(comm, "error")
    assert refused["code"] == "undo_not_allowed" and "does not allow undo" in refused["message"]
    await comm.disconnect()
    assert await database_sync_to_async(Move.objects.filter(game_id=game.id).count)() == 1
