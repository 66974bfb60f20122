"""Half-sent HTTP requests are closed (issue 24, finding 9).

A client that sends a request's line and headers (or its body) a byte at a time kept the connection
for as long as it liked: Twisted's idle timeout starts again with every byte, and Daphne's
`--http-timeout` only counts once the request is whole (300 such connections were held for 73 s
and more). On a real Daphne with FOOT_HTTP_REQUEST_SECONDS=2: trickling connections are closed
within the deadline plus a margin, while a normal request, a kept-alive connection that asks again
in time, and an open websocket all go on.
"""

import asyncio
import http.client
import socket
import time

from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer

DEADLINE = 2.0
TRICKLERS = 30


def trickling(port: int, body: bool) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=5)
    if body:  # whole headers, then a body that never finishes
        connection.sendall(
            b"POST /api/nickname HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
    else:
        connection.sendall(b"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    connection.setblocking(False)
    return connection


def still_open(connection: socket.socket) -> bool:
    """Send one more byte of the request; False once the server has closed the connection."""
    try:
        if connection.recv(4096) == b"":
            return False
    except BlockingIOError:
        pass
    except OSError:
        return False
    try:
        connection.send(b"x")
    except OSError:
        return False
    return True


async def websocket_outlives_the_deadline(server, browser: Browser, game_id: str) -> dict:
    player = WsPlayer(browser, server.ws, game_id)
    await player.open()
    await asyncio.sleep(DEADLINE * 2)
    await player.send({"type": "sync"})
    state = await player.next_message("state")
    await player.close()
    return state


def test_trickled_requests_are_closed_and_whole_ones_go_on(daphne, sqlite_url):
    server = daphne(sqlite_url, FOOT_HTTP_REQUEST_SECONDS=DEADLINE, FOOT_LIMIT_NETWORK_FACTOR=100)
    connections = [trickling(server.port, body=number % 2 == 1) for number in range(TRICKLERS)]
    started = time.monotonic()
    open_at: dict[int, float] = {}
    while time.monotonic() - started < DEADLINE * 4:
        for number, connection in enumerate(connections):
            if number not in open_at and not still_open(connection):
                open_at[number] = time.monotonic() - started
        if len(open_at) == len(connections):
            break
        time.sleep(0.25)
    for connection in connections:
        connection.close()
    assert len(open_at) == TRICKLERS, f"{TRICKLERS - len(open_at)} trickling connections still open"
    print(f"closed after {min(open_at.values()):.2f}–{max(open_at.values()):.2f} s")
    assert max(open_at.values()) < DEADLINE + 2
    # Whole requests are answered, twice on one kept-alive connection, and a websocket stays open.
    kept = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for _ in range(2):
        kept.request("GET", "/api/session")
        assert kept.getresponse().read() and kept.sock is not None
        time.sleep(DEADLINE / 2)
    kept.close()
    browser = Browser(server.http)
    assert browser.get("/api/session")["csrf"]
    game_id = browser.new_solo()
    state = asyncio.run(websocket_outlives_the_deadline(server, browser, game_id))
    assert state["v"] >= 0
