"""Run Daphne on uvloop: `python -m server.serve [daphne's arguments]`.

Daphne creates its event loop when `daphne.server` is imported, from the current event loop
policy, and Twisted's asyncio reactor drives it through add_reader/add_writer, which uvloop
implements. Installing uvloop's policy first makes that loop uvloop's, which runs the callbacks,
timers, thread hand-offs and the Redis connections of every move for less CPU than asyncio's own
loop (docs/PERFORMANCE.md measures it). Without uvloop installed this is plain Daphne.
It also starts the daily keeper (server.daily_keeper), which keeps the daily deals a day ahead.
"""

import asyncio

from server import daily_keeper


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
    """Daphne's access log writes every request's path; a personal link's path holds its secret."""
    import daphne.cli  # type: ignore[import-untyped]  # Daphne ships no type hints

    from server.log_redaction import RedactingAccessLog

    daphne.cli.AccessLogGenerator = RedactingAccessLog


def main() -> None:
    install_uvloop()
    plain_autobahn_log_arguments()
    redacting_access_log()  # after the policy: daphne.cli imports daphne.server, which makes its loop
    daily_keeper.start()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
