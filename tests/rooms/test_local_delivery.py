"""server.channel_layer on a real Redis: a group's messages are delivered in the process when all
of its sockets are there (nothing published), and published when another process has sockets in
it too; either way every socket gets every message once, in the order sent. Two layers in one
event loop stand for two processes (each has its own id, connections and sockets)."""

import asyncio
import time

import pytest
import redis.asyncio as aioredis

from server.channel_layer import ANSWER_SECONDS, LocalFirstChannelLayer

pytestmark = pytest.mark.services

GROUP = "game.local-delivery"
QUIET = 0.3  # long enough for a published message to come back from a local Redis


def new_layer(redis_url: str) -> LocalFirstChannelLayer:
    return LocalFirstChannelLayer(hosts=[redis_url])


class Socket:
    """A consumer's channel in a layer, read all the time as a consumer reads it (a receive
    cancelled midway drops the channel from channels-redis's layer)."""

    def __init__(self, layer: LocalFirstChannelLayer, channel: str):
        self.layer, self.channel = layer, channel
        self.got: list[int] = []
        self.reader = asyncio.create_task(self.read())

    @classmethod
    async def new(cls, layer: LocalFirstChannelLayer) -> "Socket":
        return cls(layer, await layer.new_channel())

    async def read(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            self.got.append(message["n"])  # the list of now: `received` swaps it

    async def received(self) -> list[int]:
        """The `n` of every message since the last call, once none came for QUIET seconds."""
        seen = -1
        while seen != len(self.got):
            seen = len(self.got)
            await asyncio.sleep(QUIET)
        got, self.got = self.got, []
        return got


class Spy:
    """An outside subscriber to the group's Redis channel: what the processes published."""

    def __init__(self, redis_url: str, group: str):
        self.client = aioredis.Redis.from_url(redis_url)
        self.pubsub = self.client.pubsub()
        self.name = f"asgi__group__{group}"

    async def __aenter__(self) -> "Spy":
        await self.pubsub.subscribe(self.name)
        return self

    async def messages(self) -> int:
        """The messages heard until QUIET seconds passed without one (a subscription's confirmation
        also reads as None)."""
        count, quiet_since = 0, time.monotonic()
        while time.monotonic() - quiet_since < QUIET:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=QUIET / 3)
            if message is not None and message["channel"].decode() == self.name:
                count, quiet_since = count + 1, time.monotonic()
        return count

    async def __aexit__(self, *exc) -> None:
        await self.pubsub.aclose()
        await self.client.aclose()


async def send(layer: LocalFirstChannelLayer, numbers: range, group: str = GROUP) -> None:
    for n in numbers:
        await layer.group_send(group, {"type": "room.update", "n": n})


def unique(group: str) -> str:
    return f"{group}-{time.monotonic_ns()}"


def test_sockets_of_one_process_get_every_message_in_order_and_nothing_is_published(redis_url):
    async def scenario():
        group, here = unique(GROUP), new_layer(redis_url)
        first, second = await Socket.new(here), await Socket.new(here)
        for socket in (first, second):
            await here.group_add(group, socket.channel)
        async with Spy(redis_url, group) as spy:
            await send(here, range(20), group)
            assert await first.received() == list(range(20))
            assert await second.received() == list(range(20))
            assert await spy.messages() == 0
        await here.flush()

    asyncio.run(scenario())


def test_sockets_on_two_processes_get_every_message_once_in_order(redis_url):
    async def scenario():
        group, one, two = unique(GROUP), new_layer(redis_url), new_layer(redis_url)
        mine, theirs = await Socket.new(one), await Socket.new(two)
        await one.group_add(group, mine.channel)
        await two.group_add(group, theirs.channel)
        # The newcomer's join returned: the member it greeted already publishes for it.
        assert two._get_layer().process in one._get_layer().peers[f"asgi__group__{group}"]
        async with Spy(redis_url, group) as spy:
            await send(one, range(20), group)
            await send(two, range(20, 40), group)
            for got in (await mine.received(), await theirs.received()):
                # once each, in each sender's order (two senders' messages may interleave)
                assert sorted(got) == list(range(40))
                assert [n for n in got if n < 20] == list(range(20))
            assert await spy.messages() == 40
        # The other process's last socket leaves: back to delivery in the process alone.
        await two.group_discard(group, theirs.channel)
        await asyncio.sleep(QUIET)  # its goodbye arrives
        async with Spy(redis_url, group) as spy:
            await send(one, range(40, 50), group)
            assert await mine.received() == list(range(40, 50))
            assert await spy.messages() == 0
        await one.flush()
        await two.flush()

    asyncio.run(scenario())


def test_a_member_that_never_answers_is_dropped_and_the_group_stays_published(redis_url):
    async def scenario():
        group, here = unique(GROUP), new_layer(redis_url)
        loop_layer = here._get_layer()
        key = loop_layer.members_key(f"asgi__group__{group}")
        client = aioredis.Redis.from_url(redis_url)
        await client.sadd(key, "a-process-killed-with-its-sockets")
        socket = await Socket.new(here)
        started = time.monotonic()
        await here.group_add(group, socket.channel)
        assert ANSWER_SECONDS <= time.monotonic() - started < ANSWER_SECONDS + 2
        assert await client.smembers(key) == {loop_layer.process.encode()}
        async with Spy(redis_url, group) as spy:
            await send(here, range(5), group)
            assert await socket.received() == list(range(5))
            assert await spy.messages() == 5  # maybe alive: it still gets the messages
        await client.delete(key)
        await client.aclose()
        await here.flush()

    asyncio.run(scenario())
