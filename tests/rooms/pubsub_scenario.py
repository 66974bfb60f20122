"""Run by test_pubsub_cleanup.py in a subprocess whose REDIS_URL selects the Redis pub/sub layer:
open and close game sockets through the real consumer, then print how many channels the layer
still holds (`channels <n>`) and how many groups (`groups <n>`)."""

import asyncio
import os
import sys

import django

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.testing import WebsocketCommunicator  # noqa: E402
from channels_redis.pubsub import RedisPubSubChannelLayer  # noqa: E402

from games.consumers import GameConsumer  # noqa: E402
from games.rooms.creation import create_game  # noqa: E402
from games.socket_plumbing import EchoConsumer  # noqa: E402
from players.models import Player  # noqa: E402

SOCKETS = 30
# The communicator's default bounds (1 s for the connect and for the consumer to finish after
# the disconnect) are shorter than a consumer's database and Redis round trips take on a loaded
# machine: it then raises TimeoutError, or cancels the consumer before its cleanup ran. Both
# bounds end as soon as the consumer is done; only a consumer that hangs meets them.
BOUND = 60


def routed(app, kwargs: dict):
    """`app` as the router and the session middleware would call it: the route's kwargs and an
    empty session in its scope."""

    async def with_route(scope: dict, receive, send) -> None:
        await app({**scope, "url_route": {"kwargs": kwargs}, "session": {}}, receive, send)

    return with_route


async def open_and_close(app, path: str, kwargs: dict, first_message) -> None:
    communicator = WebsocketCommunicator(routed(app, kwargs), path)
    connected, _ = await communicator.connect(timeout=BOUND)
    assert connected
    await first_message(communicator)
    await communicator.disconnect(timeout=BOUND)


async def main():
    player = await database_sync_to_async(Player.objects.create)()
    for _ in range(SOCKETS):
        game, _ = await database_sync_to_async(create_game)(player, "solo", "easy")
        await open_and_close(
            GameConsumer.as_asgi(),
            f"/ws/game/{game.id}/",
            {"game_id": str(game.id)},
            lambda communicator: communicator.receive_json_from(timeout=BOUND),
        )

        async def echo(communicator):
            await communicator.send_to(text_data="ping")
            assert await communicator.receive_from(timeout=BOUND) == "ping"

        await open_and_close(EchoConsumer.as_asgi(), "/ws/echo/", {}, echo)
    pubsub = get_channel_layer()
    assert isinstance(pubsub, RedisPubSubChannelLayer), f"REDIS_URL selects the pub/sub layer, not {pubsub!r}"
    layer = pubsub._get_layer()
    print(f"channels {len(layer.channels)}")
    print(f"groups {len(layer.groups)}")
    # server.channel_layer's own memory of the groups: gone with their last socket
    print(f"peers {len(getattr(layer, 'peers', {})) + len(getattr(layer, 'settled', ()))}")


asyncio.run(main())
