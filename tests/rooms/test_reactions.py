"""Reactions, not chat (issue 15, item 7), over the consumer: a fixed code reaches every socket of
the game with its seat; one per seat every FOOT_REACTION_SECONDS, a flood is refused with a clear
message and shows nothing more; an unknown code, free text or a spectator's reaction is refused and
sends nothing. A reaction never changes the game."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from players.models import Player
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (opt-in autouse fixtures)

from .test_consumer import communicator, receive, session_cookie
from .test_consumer_friends import friends, quick_clocks  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def reaction_pause(settings):
    settings.FOOT_REACTION_SECONDS = 1.5


async def connected(game_id, cookie):
    comm = communicator(game_id, cookie)
    assert (await comm.connect())[0]
    await receive(comm, "state")
    return comm


async def everything_within(comm, seconds: float) -> list[dict]:
    """Every message the socket got by `seconds` from now. (A receive that times out would end the
    communicator's application, so this waits and then takes only what is queued.)"""
    await asyncio.sleep(seconds)
    got = []
    while not await comm.receive_nothing(timeout=0.01):
        got.append(await comm.receive_json_from())
    return got


def of_type(messages, kind):
    return [message for message in messages if message["type"] == kind]


async def test_a_reaction_reaches_every_seat_of_the_game(friends):  # noqa: F811
    game, host_cookie, friend_cookie = friends
    south, north = await connected(game.id, host_cookie), await connected(game.id, friend_cookie)
    await north.send_json_to({"type": "react", "reaction": "thanks_partner"})
    for comm in (south, north):
        assert await receive(comm, "reaction") == {"type": "reaction", "seat": "N", "reaction": "thanks_partner"}
    await south.disconnect()
    await north.disconnect()


async def test_a_flood_shows_one_reaction_and_is_refused_clearly(friends):  # noqa: F811
    game, host_cookie, friend_cookie = friends
    version = game.version
    south, north = await connected(game.id, host_cookie), await connected(game.id, friend_cookie)
    for _ in range(8):
        await south.send_json_to({"type": "react", "reaction": "nice", "ref": "r"})
    said = await everything_within(south, 1.0)
    refusals = of_type(said, "error")
    assert len(of_type(said, "reaction")) == 1 and len(refusals) == 7
    for refusal in refusals:
        assert refusal["code"] == "reaction_too_soon" and refusal["ref"] == "r"
        assert refusal["message"].startswith("One reaction at a time") and 1 <= refusal["params"]["seconds"] <= 2
    shown = of_type(await everything_within(north, 0.3), "reaction")
    assert shown == [{"type": "reaction", "seat": "S", "reaction": "nice"}]
    # The pause is the seat's: the partner may react meanwhile; and the game did not change.
    await north.send_json_to({"type": "react", "reaction": "oops"})
    assert (await receive(south, "reaction"))["seat"] == "N"
    assert (await receive(north, "reaction"))["seat"] == "N"  # its own, shown back to it
    assert (await database_sync_to_async(Game.objects.get)(pk=game.id)).version == version
    await asyncio.sleep(1.6)  # the pause is over
    await south.send_json_to({"type": "react", "reaction": "good_game"})
    assert (await receive(north, "reaction"))["reaction"] == "good_game"
    await south.disconnect()
    await north.disconnect()


async def test_a_second_tab_of_the_same_seat_shares_the_pause(friends):  # noqa: F811
    game, host_cookie, _friend_cookie = friends
    first, second = await connected(game.id, host_cookie), await connected(game.id, host_cookie)
    await first.send_json_to({"type": "react", "reaction": "nice"})
    await receive(second, "reaction")
    await second.send_json_to({"type": "react", "reaction": "oops"})
    assert (await receive(second, "error"))["code"] == "reaction_too_soon"
    assert [r["reaction"] for r in of_type(await everything_within(first, 0.3), "reaction")] == ["nice"]  # no "oops"
    await first.disconnect()
    await second.disconnect()


@pytest.mark.parametrize(
    "reaction",
    ["hello", "<b>Nice!</b>", "Nice!", "NICE", "", None, 5, ["nice"], {"code": "nice"}, "nice " * 2000],
)
async def test_an_unknown_reaction_or_free_text_is_refused_and_sends_nothing(friends, reaction):  # noqa: F811
    game, host_cookie, friend_cookie = friends
    south, north = await connected(game.id, host_cookie), await connected(game.id, friend_cookie)
    message = {"type": "react", "ref": "x"}
    if reaction is not None:
        message["reaction"] = reaction
    await south.send_json_to(message)
    refusal = await receive(south, "error")
    assert refusal["code"] == "bad_reaction" and refusal["message"] == "That is not one of the reactions."
    assert refusal["ref"] == "x" and "params" not in refusal  # nothing of the text is sent back
    assert of_type(await everything_within(north, 0.3), "reaction") == []
    # A refused reaction does not start the pause: a good one goes through at once.
    await south.send_json_to({"type": "react", "reaction": "well_played"})
    assert (await receive(north, "reaction"))["reaction"] == "well_played"
    await south.disconnect()
    await north.disconnect()


async def test_a_spectator_cannot_react(friends):  # noqa: F811
    game, host_cookie, _friend_cookie = friends
    stranger_cookie = await database_sync_to_async(lambda: session_cookie(Player.objects.create()))()
    watcher = await connected(game.id, stranger_cookie)
    south = await connected(game.id, host_cookie)
    await watcher.send_json_to({"type": "react", "reaction": "nice"})
    assert (await receive(watcher, "error"))["code"] == "not_seated"
    assert of_type(await everything_within(south, 0.3), "reaction") == []
    await watcher.disconnect()
    await south.disconnect()
