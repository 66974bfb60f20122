"""The channel layer: channels-redis's pub/sub layer that delivers a group's messages inside the
process when every socket of the group is in this process, and publishes on Redis only when some
other process has sockets in it too (docs/ROOMS.md, "Delivering a move").

Each process keeps, for every group it has sockets in, the other processes that have sockets in it
(its peers). A process that gets its first socket of a group joins it: it subscribes, adds itself to
the group's member set in Redis, reads the set, says hello to the members found, and the socket
reads its state only once each of them answered. A member marks the newcomer as a peer before it
answers, so every move it stores after the answer is published, and every move stored before the
answer is in the newcomer's state. A message sent while a process has sockets of the group goes to
them at once (the same bytes Redis would bring, in the order sent) and is published, marked with
the sender, only when the group has peers or is still being joined; the sender drops its own
marked messages when Redis brings them back. A process without sockets of the group publishes as
channels-redis does.
"""

import asyncio
import logging
import uuid
import weakref
from typing import Any

import msgpack
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.serializers import MsgPackSerializer
from channels_redis.utils import _wrap_close

log = logging.getLogger(__name__)

SENDER = "__sender"  # the key that marks a published message with the process that also delivered it
CONTROL_SUFFIX = "!peers"  # a group's second Redis channel: hello, answer, goodbye, probe
ANSWER_SECONDS = 1.0  # how long a newcomer waits for a member's answer (a dead process never answers)
PROBE_SECONDS = 2.0  # how long a subscription may take to be in force before the group stays published
MEMBERS_TTL = 86_400  # a group's member set outlives its last join by a day (a crashed process's entry)
TAG_WINDOW = 64  # the marked key and the sender's id sit in the first bytes of a marked message


class LocalFirstChannelLayer(RedisPubSubChannelLayer):
    """CHANNEL_LAYERS' backend on Redis (server/settings.py): one LocalFirstLoopLayer per event loop."""

    def _get_layer(self) -> "LocalFirstLoopLayer":
        loop = asyncio.get_running_loop()
        layer: LocalFirstLoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer


class PeerAwareShard(RedisSingleShardConnection):
    """One Redis host's connection: it hands control messages and the sender's own marked
    messages to the layer instead of the sockets' queues."""

    channel_layer: "LocalFirstLoopLayer"

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        if name.endswith(CONTROL_SUFFIX):
            self.channel_layer.on_control(name[: -len(CONTROL_SUFFIX)], message["data"])
        elif not self.channel_layer.sent_here(name, message["data"]):
            super()._receive_message(message)

    async def command(self, name: str, *args: Any) -> Any:
        """A plain Redis command on this host (the member sets), beside the pub/sub connection."""
        self._ensure_redis()
        return await self._redis.execute_command(name, *args)

    async def join_members(self, key: str, process: str) -> set[str]:
        """Add `process` to the set and read it, in one round trip."""
        self._ensure_redis()
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.sadd(key, process).expire(key, MEMBERS_TTL).smembers(key)
            *_, members = await pipe.execute()
        return {m.decode() if isinstance(m, bytes) else m for m in members}


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """The layer of one event loop: its sockets' queues and groups (channels-redis's), and per group
    the peers, whether they are known yet, and the answers a join still waits for."""

    _shards: list[PeerAwareShard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.process = uuid.uuid4().hex  # this loop's id among the processes
        self._shards = [PeerAwareShard(shard.host, self) for shard in self._shards]
        self.peers: dict[str, set[str]] = {}  # group channel -> other processes with sockets in it
        self.settled: set[str] = set()  # group channels whose peers are all known
        self.unanswered: dict[str, set[str]] = {}  # group channel -> members a join still waits for
        self.answered: dict[str, asyncio.Event] = {}
        self.probes: dict[str, asyncio.Event] = {}  # probe id -> set when Redis brought it back
        self.locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.tasks: set[asyncio.Task[None]] = set()
        # The mark is found in the bytes, unread: only msgpack without encryption or prefix keeps it there.
        serializer = self.channel_layer._serializer
        self.local_first = (
            isinstance(serializer, MsgPackSerializer)
            and serializer.crypter is None
            and serializer.random_prefix_length == 0
        )
        self.tag = msgpack.packb(SENDER) + msgpack.packb(self.process)

    # ------------------------------------------------------------ sending

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        group_channel = self._get_group_channel_name(group)
        here = self.groups.get(group_channel)
        if not self.local_first or not here:
            await super().group_send(group, message)
            return
        data = self.channel_layer.serialize(message)
        for channel in here:
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(data)
        if group_channel not in self.settled or self.peers.get(group_channel):
            marked = self.channel_layer.serialize({SENDER: self.process, **message})
            await self._get_shard(group_channel).publish(group_channel, marked)

    def sent_here(self, name: str, data: bytes) -> bool:
        """A group message this process published after delivering it here itself."""
        return name in self.groups and self.tag in data[:TAG_WINDOW]

    # ------------------------------------------------------------ joining and leaving a group

    def lock_of(self, group_channel: str) -> asyncio.Lock:
        """One join or leave of a group at a time (weakly held: gone with its last user)."""
        lock = self.locks.get(group_channel)
        if lock is None:
            lock = self.locks[group_channel] = asyncio.Lock()
        return lock

    async def group_add(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        async with self.lock_of(group_channel):
            first = group_channel not in self.groups
            await super().group_add(group, channel)
            if first and self.local_first:
                await self.join(group_channel)

    async def group_discard(self, group: str, channel: str) -> None:
        group_channel = self._get_group_channel_name(group)
        async with self.lock_of(group_channel):
            had = group_channel in self.groups
            await super().group_discard(group, channel)
            if had and group_channel not in self.groups and self.local_first:
                await self.leave(group_channel)

    async def join(self, group_channel: str) -> None:
        """Learn the group's peers and make sure each knows this process; until then (or when
        Redis fails meanwhile) the group's messages are published as well."""
        shard = self._get_shard(group_channel)
        control = group_channel + CONTROL_SUFFIX
        try:
            await shard.subscribe(control)
            if not await self.probe(shard, control):
                log.warning("the subscription to %s was not confirmed: its messages stay published", group_channel)
                return
            members = await shard.join_members(self.members_key(group_channel), self.process)
            others = members - {self.process}
            self.peers.setdefault(group_channel, set()).update(others)
            await self.greet(shard, group_channel, others)
            self.settled.add(group_channel)
        except Exception:
            log.warning("could not join %s: its messages stay published", group_channel, exc_info=True)

    async def probe(self, shard: PeerAwareShard, control: str) -> bool:
        """Whether the subscription is in force: Redis brings back a message published after it
        (a SUBSCRIBE is sent on the pub/sub connection, nobody waits for its answer)."""
        probe = uuid.uuid4().hex
        event = self.probes[probe] = asyncio.Event()
        try:
            await shard.publish(control, f"probe {self.process} {probe}".encode())
            await asyncio.wait_for(event.wait(), PROBE_SECONDS)
            return True
        except TimeoutError:
            return False
        finally:
            self.probes.pop(probe, None)

    async def greet(self, shard: PeerAwareShard, group_channel: str, members: set[str]) -> None:
        """Say hello to the group and wait for each member's answer; a member silent for
        ANSWER_SECONDS is taken for dead and dropped from the set (alive, it adds itself again
        when it answers a hello). The hello goes out even to an empty set: after a Redis restart
        the set is empty while processes still have sockets in the group, and they answer too."""
        self.unanswered[group_channel] = set(members)
        event = self.answered[group_channel] = asyncio.Event()
        try:
            await shard.publish(group_channel + CONTROL_SUFFIX, f"hello {self.process}".encode())
            if members:
                await asyncio.wait_for(event.wait(), ANSWER_SECONDS)
        except TimeoutError:
            silent = self.unanswered.get(group_channel, set())
            if silent:  # else the last answer came with the timeout
                log.warning("no answer from %d processes in %s: dropped from its members", len(silent), group_channel)
                await shard.command("SREM", self.members_key(group_channel), *silent)
        finally:
            self.unanswered.pop(group_channel, None)
            self.answered.pop(group_channel, None)

    async def leave(self, group_channel: str) -> None:
        """The last socket of the group here left: out of the set, a goodbye to the peers."""
        self.settled.discard(group_channel)
        self.peers.pop(group_channel, None)
        shard = self._get_shard(group_channel)
        control = group_channel + CONTROL_SUFFIX
        try:
            await shard.command("SREM", self.members_key(group_channel), self.process)
            await shard.publish(control, f"bye {self.process}".encode())
            await shard.unsubscribe(control)
        except Exception:
            log.warning("could not leave %s cleanly", group_channel, exc_info=True)

    def members_key(self, group_channel: str) -> str:
        return f"{self.prefix}__members__{group_channel}"

    # ------------------------------------------------------------ control messages (in the receiver)

    def on_control(self, group_channel: str, data: bytes) -> None:
        """hello <process>, answer <process> <to>, bye <process>, probe <process> <id>. Runs in the
        receiver, before any later message: a peer is marked before this process answers."""
        parts = data.decode(errors="replace").split()
        if len(parts) < 2:
            return
        kind, sender, *rest = parts
        if sender == self.process:
            if kind == "probe" and rest and rest[0] in self.probes:
                self.probes[rest[0]].set()
            return
        if group_channel not in self.groups:
            return  # no socket of the group here: its messages are published anyway
        if kind == "hello":
            self.peers.setdefault(group_channel, set()).add(sender)
            self.run(self.answer(group_channel, sender))
        elif kind == "answer" and rest and rest[0] == self.process:
            self.peers.setdefault(group_channel, set()).add(sender)
            self.heard_from(group_channel, sender)
        elif kind == "bye":
            self.peers.get(group_channel, set()).discard(sender)
            self.heard_from(group_channel, sender)

    def heard_from(self, group_channel: str, sender: str) -> None:
        waiting = self.unanswered.get(group_channel)
        if waiting is not None:
            waiting.discard(sender)
            if not waiting:
                self.answered[group_channel].set()

    async def answer(self, group_channel: str, newcomer: str) -> None:
        shard = self._get_shard(group_channel)
        try:  # in the set again, should a newcomer have dropped this process for a slow answer
            await shard.command("SADD", self.members_key(group_channel), self.process)
            await shard.publish(group_channel + CONTROL_SUFFIX, f"answer {self.process} {newcomer}".encode())
        except Exception:
            log.warning("could not answer a hello in %s", group_channel, exc_info=True)

    def run(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def flush(self) -> None:
        self.peers, self.settled, self.unanswered, self.answered = {}, set(), {}, {}
        await super().flush()
