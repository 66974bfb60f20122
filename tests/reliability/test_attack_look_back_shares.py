"""One player cannot fill the look-back queue (issue 24, finding 7).

At most FOOT_LOOKBACK_QUEUE (8) look backs wait per process, and any one player could take all of
them: ask on eight finished games, and everyone else was told `look_back_busy`. Now each player
has a share (FOOT_LOOKBACK_PER_PLAYER, 2) and each network one (FOOT_LOOKBACK_PER_NETWORK, 4).

On a real Daphne whose look backs never get idle CPU (FOOT_LOOKBACK_BUSY=-1: every search waits, so
the queue stays full; with 0 a search went on in a window where the machine was wholly idle) and
whose players wait 1 s (`look_back_later`): an attacker asks on nine
finished games of their own; a victim then asks on theirs and gets a place. Two more cookie jars of
the attacker's network take the network's last place and are refused past it. All of them come
from 127.0.0.1, one network.
"""

import asyncio

from tests.reliability.clients import a_finished_first_deal
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer

ATTACKER_GAMES = 9


async def ask_look_back(server, browser: Browser, game_id: str) -> str:
    """The answer's type to a look back at deal 1: `look_back`, or the refusal's code."""
    player = WsPlayer(browser, server.ws, game_id)
    await player.open()
    try:
        await player.send({"type": "look_back", "deal": 1, "ref": "lb"})
        answer = await player.until(lambda message: message.get("ref") == "lb", timeout=30)
        return answer["type"] if answer["type"] == "look_back" else answer["code"]
    finally:
        await player.close()


def test_one_player_or_network_cannot_fill_the_look_back_queue(daphne, sqlite_url):
    server = daphne(sqlite_url, FOOT_LOOKBACK_BUSY=-1, FOOT_LOOKBACK_WAIT=1, FOOT_LOOKBACK_QUEUE=8)
    prepared = a_finished_first_deal()

    def finished_game(browser: Browser) -> str:
        return browser.post("/test/start-position", prepared)["id"]

    attacker = Browser(server.http)
    attacked = [finished_game(attacker) for _ in range(ATTACKER_GAMES)]
    answers = [asyncio.run(ask_look_back(server, attacker, game_id)) for game_id in attacked]
    taken = answers.count("look_back_later")
    print(f"the attacker's {ATTACKER_GAMES} asks: {answers}")
    assert taken == 2 and answers.count("look_back_yours_waiting") == ATTACKER_GAMES - 2, answers

    victim = Browser(server.http)
    assert asyncio.run(ask_look_back(server, victim, finished_game(victim))) == "look_back_later"
    others = [Browser(server.http) for _ in range(2)]  # more cookie jars of the same network
    network_answers = [asyncio.run(ask_look_back(server, other, finished_game(other))) for other in others]
    assert network_answers == ["look_back_later", "look_back_busy"], network_answers
