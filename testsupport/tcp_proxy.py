"""A small TCP proxy for fault tests: forwards a local port to a target and can cut every connection.

    python -m testsupport.tcp_proxy --listen 127.0.0.1:6543 --target 127.0.0.1:5432
    kill -USR1 <pid>   # cut every open connection (both sides see a reset)
    kill -USR2 <pid>   # toggle refusing new connections

In a test: `proxy = TcpProxy(("127.0.0.1", 5432)).start()`, then `proxy.cut()`,
`proxy.refuse(True)`, `proxy.stop()`. It runs in its own thread with its own event loop.
"""

import argparse
import asyncio
import contextlib
import signal
import socket
import struct
import threading


class TcpProxy:
    def __init__(self, target: tuple[str, int], listen: tuple[str, int] = ("127.0.0.1", 0)):
        self.target, self.listen = target, listen
        self.port: int | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server: asyncio.Server | None = None
        # (client writer, upstream writer) of the open connections
        self.pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.refusing = False
        self.cuts = 0
        self.accepted = 0
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    # -------------------------------------------------------- control (any thread)

    def start(self) -> "TcpProxy":
        thread = self._thread = threading.Thread(target=self._run, name="tcp-proxy", daemon=True)
        thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("proxy did not start")
        return self

    def cut(self) -> int:
        """Reset every open connection now; returns how many were cut."""
        if self.loop is None:
            raise RuntimeError("the proxy was never started")
        return asyncio.run_coroutine_threadsafe(self._cut(), self.loop).result(10)

    def refuse(self, refusing: bool) -> None:
        self.refusing = refusing

    def stop(self) -> None:
        if self.loop is not None:
            asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(10)
            self.loop.call_soon_threadsafe(self.loop.stop)
            if self._thread is not None:
                self._thread.join(10)

    # -------------------------------------------------------- the proxy (its own loop)

    def _run(self) -> None:
        loop = self.loop = asyncio.new_event_loop()
        loop.run_until_complete(self._serve())
        loop.run_forever()
        loop.close()

    async def _serve(self) -> None:
        server = self.server = await asyncio.start_server(self._accept, *self.listen)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()

    async def _accept(self, reader, writer) -> None:
        if self.refusing:
            reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            reset(writer)
            return
        self.accepted += 1
        pair = (writer, up_writer)
        self.pairs.add(pair)
        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        finally:
            self.pairs.discard(pair)
            for side in pair:
                side.close()

    async def _cut(self) -> int:
        pairs = list(self.pairs)
        for client, upstream in pairs:
            reset(client)
            reset(upstream)
        self.cuts += len(pairs)
        return len(pairs)

    async def _shutdown(self) -> None:
        if self.server is not None:
            self.server.close()
        await self._cut()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:  # the pipes of the cut connections: end them before the loop stops
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)


async def pipe(reader, writer) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        reset(writer) if writer.is_closing() is False and reader.at_eof() is False else writer.close()


def reset(writer) -> None:
    """Close with RST (SO_LINGER 0), as a dropped network or a killed peer looks to the other side."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):  # already gone: closed either way
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


def address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", default="127.0.0.1:0", type=address)
    parser.add_argument("--target", required=True, type=address)
    args = parser.parse_args()
    proxy = TcpProxy(args.target, args.listen).start()
    print(f"listening on 127.0.0.1:{proxy.port} -> {args.target[0]}:{args.target[1]}", flush=True)
    signal.signal(signal.SIGUSR1, lambda *_: print(f"cut {proxy.cut()} connections", flush=True))
    signal.signal(signal.SIGUSR2, lambda *_: proxy.refuse(not proxy.refusing))
    try:
        signal.pause()
    except KeyboardInterrupt:
        proxy.stop()


if __name__ == "__main__":
    main()
