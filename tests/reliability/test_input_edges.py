"""Input at the edge (issue #18, findings 3 and 9): actions carry only the fields the engine reads,
and a game id has one spelling from the edge on.

- an action with any other field is refused with `bad_field` (in the socket's language), nothing
  applied, nothing stored; the stored action is the normalised one; a huge action is refused;
- a game id in upper case is the same game everywhere (the socket gets its own patches, the
  pages and the API answer the canonical id); `{…}`, `urn:uuid:` and bare hex are no game
  (4404 on the socket, 404 over HTTP), never a 1011 or a 500.
"""

import pytest
from channels.db import database_sync_to_async

from games.engine import RuleError, normalise_action, public_fields
from games.models import Game, Move
from games.protocol import CLOSE_NOT_FOUND
from games.rooms.creation import create_game
from players.models import Player
from testsupport.rooms_fixtures import fast_bots, settled_rooms  # noqa: F401  (opt-in autouse fixtures)
from testsupport.sockets import TIMEOUT, close_code, communicator, receive, session_cookie


def solo_game_and_cookie():
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    return game, session_cookie(player)


def stored(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, list(Move.objects.filter(game=game).values_list("action", flat=True))


# ---------------------------------------------------------------- finding 4: one reader of numbers, dates, ids


def test_numbers_are_ascii_digits_within_bounds_and_dates_within_the_sites_range():
    import datetime

    from games import params

    assert params.whole_number("12", 1, 100) == 12 and params.whole_number("0012", 1, 100) == 12
    for odd in ("²", "٣", "１", " 1", "-1", "1.0", "", "0" * 5000, "9" * 5000, "101", "0"):
        assert params.whole_number(odd, 1, 100) is None, odd
    assert params.iso_date("2020-01-01") == datetime.date(2020, 1, 1)
    assert params.iso_date(params.latest_date().isoformat()) == params.latest_date()
    for odd in ("0001-01-01", "2019-12-31", "9999-12-31", "2020-02-30", "2020-1-1", "２０２０-01-01", "20200101"):
        assert params.iso_date(odd) is None, odd
    assert params.game_id("6F1C0000-0000-4000-8000-00000000ABCD") == "6f1c0000-0000-4000-8000-00000000abcd"
    odd_ids: tuple[str | None, ...] = (
        "{6f1c0000-0000-4000-8000-00000000abcd}",
        "urn:uuid:6f1c0000-0000-4000-8000-00000000abcd",
        "6f1c0000000040008000000000000abcd",
        "６f1c0000-0000-4000-8000-00000000abcd",
        None,
    )
    for odd_id in odd_ids:
        assert params.game_id(odd_id) is None, odd_id


# ---------------------------------------------------------------- finding 3: only the engine's fields


def test_the_normal_form_keeps_the_fields_each_type_reads_and_refuses_any_other():
    assert normalise_action({"type": "draw"}) == {"type": "draw"}
    assert normalise_action({"type": "discard", "card": "KD"}) == {"type": "discard", "card": "KD"}
    assert normalise_action(
        {"type": "meld", "groups": [{"cards": ["5H"], "to": None}, {"cards": ["KD"], "to": "K"}]}
    ) == {"type": "meld", "groups": [{"cards": ["5H"]}, {"cards": ["KD"], "to": "K"}]}
    assert normalise_action({"type": "take_pile", "cards": ["5H", "5S"], "groups": [{"cards": ["9D"]}]}) == {
        "type": "take_pile",
        "cards": ["5H", "5S"],
        "groups": [{"cards": ["9D"]}],
    }
    refused = [
        {"type": "draw", "junk": "x"},
        {"type": "draw", "card": "KD"},
        {"type": "discard", "card": "KD", "cards": []},
        {"type": "meld", "groups": [{"cards": ["5H"], "note": "x"}]},
        {"type": "take_pile", "cards": ["5H"], "groups": [{"cards": ["9D"], "to": "9"}]},
    ]
    for action in refused:
        with pytest.raises(RuleError) as error:
            normalise_action(action)
        assert error.value.code == "bad_field"
    with pytest.raises(RuleError) as error:
        normalise_action({"type": "discard", "card": "K" * 5000})
    assert error.value.code == "action_too_big"


def test_publishing_keeps_only_the_fields_of_the_type():
    assert public_fields({"type": "draw", "junk": "x" * 60_000}) == {"type": "draw"}
    assert public_fields({"type": "meld", "groups": [{"cards": ["5H"], "x": 1}], "y": 2}) == {
        "type": "meld",
        "groups": [{"cards": ["5H"]}],
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "language, word", [("en", "not part of this action"), ("de", "gehört nicht zu diesem Zug"), ("bn", "অংশ নয়")]
)
async def test_an_action_with_an_extra_field_is_refused_and_nothing_is_stored(language, word):
    game, cookie = await database_sync_to_async(solo_game_and_cookie)()
    comm = communicator(game.id, cookie, language)
    assert (await comm.connect(timeout=TIMEOUT))[0]
    await receive(comm, "state")
    junk = {"type": "draw", "junk": "x" * 60_000}
    await comm.send_json_to({"type": "action", "action": junk, "v": 0, "ref": "j"})
    error = await receive(comm, "error")
    assert error["code"] == "bad_field" and error["ref"] == "j" and error["params"] == {"field": "junk"}
    assert word in error["message"]
    await comm.send_json_to({"type": "check", "action": junk, "ref": "k"})
    assert (await receive(comm, "error"))["code"] == "bad_field"
    assert await database_sync_to_async(stored)(game.id) == (0, [])
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "d"})
    assert (await receive(comm, "patch"))["ref"] == "d"
    assert (await database_sync_to_async(stored)(game.id))[1] == [{"type": "draw"}]
    await comm.disconnect()


# ---------------------------------------------------------------- finding 9: one spelling of a game id


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_on_the_upper_case_id_is_the_same_game_and_gets_its_own_patches():
    game, cookie = await database_sync_to_async(solo_game_and_cookie)()
    comm = communicator(str(game.id).upper(), cookie)
    assert (await comm.connect(timeout=TIMEOUT))[0]
    state = await receive(comm, "state")
    assert state["seat"] == "S"
    await comm.send_json_to({"type": "action", "action": {"type": "draw"}, "v": state["v"], "ref": "up"})
    patch = await receive(comm, "patch")
    assert patch["ref"] == "up" and patch["v"] == state["v"] + 1
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("spelling", ["{%s}", "urn:uuid:%s", "%s-nope"])
async def test_other_spellings_of_a_game_id_close_with_4404(spelling):
    game, cookie = await database_sync_to_async(solo_game_and_cookie)()
    comm = communicator(spelling % game.id, cookie)
    await comm.connect(timeout=TIMEOUT)
    assert await close_code(comm) == CLOSE_NOT_FOUND
    bare = communicator(str(game.id).replace("-", ""), cookie)
    await bare.connect(timeout=TIMEOUT)
    assert await close_code(bare) == CLOSE_NOT_FOUND


@pytest.mark.django_db
def test_pages_and_api_serve_the_upper_case_id_as_the_canonical_game_and_refuse_other_spellings(client):
    client.get("/api/session")
    player = Player.objects.get(pk=client.session["player_id"])
    game, _ = create_game(player, "solo", "easy")
    upper = str(game.id).upper()
    page = client.get(f"/g/{upper}/")
    assert page.status_code == 200 and f"/ws/game/{game.id}/" in page.content.decode()
    assert client.get(f"/api/games/{upper}").json()["id"] == str(game.id)
    for spelling in (f"{{{game.id}}}", f"urn:uuid:{game.id}", str(game.id).replace("-", "")):
        assert client.get(f"/g/{spelling}/").status_code == 404
        assert client.get(f"/api/games/{spelling}").status_code == 404
