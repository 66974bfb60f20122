"""What a player sees does not change when the server's insides do: the frames of a seeded solo
game, played through a real Daphne by the same person's policy against the `easy` bots, are
compared with the frames the previous implementation sent (tests/rooms/golden/solo_frames.json).

Each patch frame (version, ops, events, ref) is kept as the SHA-256 of its canonical JSON: the
same versions, the same patches, the same events, in the same order. The game is played on
SQLite (the locked path) and on PostgreSQL (moves from memory, a computer's whole turn in one
statement), and both must match the one file. To record it again after a change that is meant to
change the frames (a new event, a protocol change): FOOT_RECORD_FRAMES=1 pytest this file, and
say why in the commit.
"""

import hashlib
import json
import os
from pathlib import Path

import pytest

from games.engine import Game as EngineGame
from testsupport.clients import Browser
from testsupport.ws_player import WsPlayer, run

GOLDEN = Path(__file__).with_name("golden") / "solo_frames.json"
SEED = 20_261_205
VERSIONS = 420  # past the first deal's end (about version 330 with this seed and policy)


def person_action(view: dict) -> dict:
    """The recorded person: draws, lays the first card it may add to a meld (not a wild card)
    while it keeps four cards, else discards its lowest card."""
    options = view["options"]
    if options["draw"]:
        return {"type": "draw"}
    if sum(view["hand"].values()) > 4:
        for rank, cards in sorted((options.get("add_to") or {}).items()):
            natural = sorted(card for card in cards if card != "JK" and not card.startswith("2"))
            if natural:
                return {"type": "meld", "groups": [{"cards": [natural[0]], "to": rank}]}
    return {"type": "discard", "card": sorted(view["hand"])[0]}


def digest(frame: dict) -> str:
    canonical = json.dumps(frame, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


async def record(browser: Browser, ws: str, game_id: str) -> list[dict]:
    """South plays to VERSIONS (answering each deal's end with next_deal); every patch it got."""
    south = WsPlayer(browser, ws, game_id)
    await south.open()
    while south.opened_version() < VERSIONS and south.opened_view()["phase"] != "over":
        if south.deal_ended:
            south.deal_ended = False
            await south.send({"type": "next_deal"})
        if south.my_turn():
            answer = await south.act(person_action(south.opened_view()))
            assert answer["type"] == "patch", answer
        else:
            await south.next_message("patch")
    await south.sync_matches()
    await south.close()
    return south.patches


@pytest.mark.services
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_recorded_game_sends_the_same_frames(daphne, request, database):
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "postgres_url")
    server = daphne(url, FOOT_WS_RATE=1000, FOOT_WS_BURST=1000)
    browser = Browser(server.http)
    position = EngineGame.new(SEED).to_position()
    game = browser.post("/test/start-position", {"position": position, "level": "easy"})
    patches = run(record(browser, server.ws, game["id"]))
    frames = [{key: patch.get(key) for key in ("v", "ops", "events", "ref")} for patch in patches]
    assert [frame["v"] for frame in frames] == list(range(1, len(frames) + 1))
    assert any(e["type"] == "deal_end" for frame in frames for e in frame["events"]), "no deal end recorded"
    digests = [digest(frame) for frame in frames]
    if os.environ.get("FOOT_RECORD_FRAMES") and database == "sqlite":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps({"seed": SEED, "versions": len(digests), "frames": digests}, indent=0) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert golden["seed"] == SEED and len(digests) == golden["versions"], (len(digests), golden["versions"])
    for frame, mine, theirs in zip(frames, digests, golden["frames"], strict=True):
        assert mine == theirs, f"the frame of version {frame['v']} changed: {json.dumps(frame)[:2000]}"
