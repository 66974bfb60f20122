"""Run by test_socket_threads.py in a subprocess whose DATABASE_URL is PostgreSQL: the database
calls of a socket's opening run on the room's pool of database threads (games.rooms.database_threads),
so one socket's lookup does not wait for another's. Two sockets open at once, and the lookup of
each waits until the other's has begun: on one thread (Channels' own, as before) the first
would wait in vain and the second never begin.

Prints `ok <name>`; any failure raises (a non-zero exit fails the test).
"""

import asyncio
import os
import sys
import threading

import django

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
django.setup()

from games.rooms import socket_face  # noqa: E402
from games.rooms.creation import create_game  # noqa: E402
from players.models import Player  # noqa: E402
from testsupport.sockets import communicator, receive, session_cookie  # noqa: E402

both_looking = threading.Barrier(2, timeout=5)
identify = socket_face.identify


def identify_with_the_other(*args):
    both_looking.wait()  # BrokenBarrierError after 5 s if the other lookup never begins
    return identify(*args)


socket_face.identify = identify_with_the_other


async def open_two(tables: list[tuple[str, str]]) -> None:
    sockets = [communicator(game_id, cookie) for game_id, cookie in tables]
    for connected, _ in await asyncio.gather(*(socket.connect(timeout=10) for socket in sockets)):
        assert connected
    states = await asyncio.gather(*(receive(socket, "state") for socket in sockets))
    assert [state["seat"] for state in states] == ["S", "S"]
    await asyncio.gather(*(socket.disconnect() for socket in sockets))


players = [Player.objects.create() for _ in range(2)]
tables = [(str(create_game(player, "solo", "easy")[0].id), session_cookie(player)) for player in players]
asyncio.run(open_two(tables))
print("ok two sockets are looked up at once")
