"""Run Daphne on uvloop: `python -m server.serve [daphne's arguments]`.

Daphne creates its event loop when `daphne.server` is imported, from the current event loop
policy, and Twisted's asyncio reactor drives it through add_reader/add_writer, which uvloop
implements. Installing uvloop's policy first makes that loop uvloop's, which runs the callbacks,
timers, thread hand-offs and the Redis connections of every move for less CPU than asyncio's own
loop (docs/PERFORMANCE.md measures it). Without uvloop installed this is plain Daphne.
It also starts the daily keeper (server.daily_keeper), which keeps the daily deals a day ahead,
and restarts gracefully: on SIGTERM the process stops accepting connections, lets each socket's
move in flight finish, closes every socket with 1012 (server.front) and exits, within
FOOT_DRAIN_SECONDS (docs/DEPLOY.md). Websocket messages and frames are limited to 64 KB unless
the arguments say otherwise.
"""

import asyncio
import logging
import os
import signal
import sys
from typing import Any

from server import daily_keeper, slow_requests

log = logging.getLogger(__name__)


def install_uvloop() -> bool:
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def plain_autobahn_log_arguments() -> None:
    """autobahn (Daphne's websocket code) formats the arguments of a debug log line for every frame
    it sends or receives, even with debug logging off, and colours them with click when click is
    importable. The production requirements do not install click; the development ones do (mutmut
    needs it), which slowed every frame of the benchmarks (docs/PERFORMANCE.md). Without colour,
    both run the same code."""
    try:
        import autobahn.util
    except ImportError:
        return
    autobahn.util._HAS_CLICK = False


def redacting_access_log() -> None:
    """Daphne's access log writes every request's path; a personal link's path holds its secret.
    With LOG_FORMAT=json the front writes the access log (server.logs.FrontAccessLog)."""
    import daphne.cli  # type: ignore[import-untyped]  # Daphne ships no type hints

    from server.log_redaction import RedactingAccessLog

    daphne.cli.AccessLogGenerator = RedactingAccessLog
    if os.environ.get("LOG_FORMAT") == "json":
        from server.logs import FrontAccessLog

        daphne.cli.AccessLogGenerator = FrontAccessLog


def allow_service_restart_close() -> None:
    """autobahn lets a server close a websocket only with 1000 or 3000-4999; RFC 6455's registry
    has 1012 for "service restart", which browsers and clients know: the drain sends it."""
    from daphne.ws_protocol import WebSocketProtocol  # type: ignore[import-untyped]

    plain_close = WebSocketProtocol.serverClose

    def server_close(self: WebSocketProtocol, code: int | None = None) -> None:
        if code == 1012:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            plain_close(self, code)

    WebSocketProtocol.serverClose = server_close


def draining_server() -> None:
    """Daphne's server with the graceful restart on SIGTERM in place of Twisted's immediate stop."""
    import daphne.cli
    from daphne.server import Server  # type: ignore[import-untyped]
    from twisted.internet import reactor

    class DrainingServer(Server):  # type: ignore[misc]  # Daphne ships no type hints
        ports: list[Any]  # Twisted's listening ports: zope interfaces, which mypy cannot call through

        def run(self) -> None:
            self.ports, self.draining = [], False
            reactor.callWhenRunning(self.take_sigterm)
            super().run()

        def listen_success(self, port: Any) -> None:
            self.ports.append(port)
            super().listen_success(port)

        def take_sigterm(self) -> None:
            signal.signal(signal.SIGTERM, lambda *_: reactor.callFromThread(self.begin_drain))

        def begin_drain(self) -> None:
            if self.draining:
                return
            self.draining = True
            for port in self.ports:
                port.stopListening()  # nothing new is accepted; the balancer sends it elsewhere
            self.drain_task = asyncio.ensure_future(self.drain(), loop=reactor._asyncioEventloop)

        async def drain(self) -> None:
            from django.conf import settings

            from server.asgi import front

            seconds = float(settings.FOOT_DRAIN_SECONDS)
            clean = await front.drain(seconds)
            log.warning(
                "SIGTERM: %s within %ss (%d sockets, %d requests left); exiting",
                "drained" if clean else "not drained",
                seconds,
                len(front.sockets),
                front.requests,
            )
            reactor.stop()  # type: ignore[misc]  # Twisted's reactor is typed as a module

    daphne.cli.CommandLineInterface.server_class = DrainingServer


# Daphne's own default is 1 MB, held in memory before the consumer (64 KB, docs/PROTOCOL.md) could
# refuse it: the same limit here stops a bigger frame before it is buffered (close 1009).
FRAME_LIMIT_OPTIONS = {"--websocket-max-message-size": "65536", "--websocket-max-frame-size": "65536"}


def with_frame_limits(argv: list[str]) -> list[str]:
    """Daphne's arguments with the 64 KB websocket limits added, unless they set their own."""
    given = {argument.split("=", 1)[0] for argument in argv}
    added = [part for option, value in FRAME_LIMIT_OPTIONS.items() if option not in given for part in (option, value)]
    return [argv[0], *added, *argv[1:]]


def main() -> None:
    sys.argv = with_frame_limits(sys.argv)
    install_uvloop()
    plain_autobahn_log_arguments()
    redacting_access_log()  # after the policy: daphne.cli imports daphne.server, which makes its loop
    allow_service_restart_close()
    draining_server()
    daily_keeper.start()  # sets Django up
    slow_requests.install()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
