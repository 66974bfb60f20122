"""Socket caps and the idle timeout (issue 18, finding 7), in process (channels.testing): the 300
sockets of the issue on one game are refused past the spectators' per-game cap with close code 4429
(issue 24, finding 2: seated sockets have a cap of their own), a session holds at most its cap, a
place comes back when a socket closes, and a silent socket is closed with 4408 while one that says
"heartbeat" stays."""

import asyncio

import pytest

from games.protocol import CLOSE_IDLE, CLOSE_TOO_MANY
from games.rooms.creation import create_game
from players.models import Player
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import communicator, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
TIMEOUT = 10


@pytest.fixture
def solo():
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    return game, session_cookie(player)


def socket(game_id, cookie: str | None = None, address: str = "127.0.0.1"):
    comm = communicator(game_id, cookie)
    comm.scope["client"] = (address, 50000)
    return comm


async def first_frame(comm) -> str | int:
    """ "state" when the socket was let in, else its close code."""
    connected, code = await comm.connect(timeout=TIMEOUT)
    if not connected:
        return f"denied {code}"  # before accept: the origin check, never a limit
    while True:
        output = await comm.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return output.get("code")
        if output["type"] == "websocket.send" and '"type":"state"' in output.get("text", ""):
            return "state"


async def closed_within(comm, seconds: float) -> int | None:
    """The close code if the server closes the socket within `seconds`, else None."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                output = await comm.receive_output(timeout=seconds + 1)
                if output["type"] == "websocket.close":
                    return output.get("code")
    except TimeoutError:
        return None


async def test_spectators_past_their_per_game_cap_are_refused_with_4429(solo):
    game, _cookie = solo
    sockets = [socket(game.id) for _ in range(40)]  # the flood, without cookies, from one address
    answers = [await first_frame(comm) for comm in sockets]
    assert answers.count("state") == 20  # FOOT_SPECTATORS_PER_GAME
    assert answers[20:] == [CLOSE_TOO_MANY] * 20
    await sockets[0].disconnect()
    again = socket(game.id)
    assert await first_frame(again) == "state"  # the closed socket's place is free again
    for comm in [again, *sockets[1:20]]:
        await comm.disconnect()


async def test_seated_sockets_past_the_per_game_cap_are_refused_with_4429(solo, settings):
    settings.FOOT_SOCKETS_PER_GAME = 3
    game, cookie = solo
    tabs = [socket(game.id, cookie) for _ in range(4)]
    assert [await first_frame(tab) for tab in tabs] == ["state"] * 3 + [CLOSE_TOO_MANY]
    for comm in tabs[:3]:
        await comm.disconnect()


async def test_one_session_holds_at_most_its_cap(solo, settings):
    settings.FOOT_SOCKETS_PER_SESSION = 2
    game, cookie = solo
    tabs = [socket(game.id, cookie) for _ in range(3)]
    assert [await first_frame(tab) for tab in tabs] == ["state", "state", CLOSE_TOO_MANY]
    stranger = socket(game.id)  # another browser is not counted with this one
    assert await first_frame(stranger) == "state"
    await tabs[0].disconnect()
    last = socket(game.id, cookie)
    assert await first_frame(last) == "state"
    for comm in (tabs[1], stranger, last):
        await comm.disconnect()


async def test_one_network_holds_at_most_its_spectators_cap(solo, settings):
    settings.FOOT_SPECTATORS_PER_NETWORK = 3
    game, _cookie = solo
    sockets = [socket(game.id, address="203.0.113.7") for _ in range(4)]
    assert [await first_frame(comm) for comm in sockets] == ["state"] * 3 + [CLOSE_TOO_MANY]
    elsewhere = socket(game.id, address="198.51.100.2")
    assert await first_frame(elsewhere) == "state"
    for comm in (*sockets[:3], elsewhere):
        await comm.disconnect()


async def test_a_silent_socket_is_closed_with_4408_and_one_that_says_heartbeat_stays(solo, settings):
    settings.FOOT_WS_IDLE_SECONDS, settings.FOOT_HEARTBEAT_SECONDS = 1.0, 0.25
    game, cookie = solo
    silent, talking = socket(game.id, cookie), socket(game.id, cookie)
    assert await first_frame(silent) == "state" and await first_frame(talking) == "state"

    async def keep_talking():
        for _ in range(12):
            await talking.send_json_to({"type": "heartbeat"})
            await asyncio.sleep(0.25)

    talker = asyncio.create_task(keep_talking())
    assert await closed_within(silent, 3.0) == CLOSE_IDLE
    await talker
    frames = []
    while not await talking.receive_nothing(timeout=0.1):
        frames.append(await talking.receive_output())
    assert all(frame["type"] == "websocket.send" for frame in frames)  # not closed
    assert not any('"type":"error"' in frame["text"] for frame in frames)  # a heartbeat is no error
    await talking.disconnect()
