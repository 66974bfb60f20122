"""How many statements one socket opening sends to the database (issue 26): after a restart every
table of the process opens again at once on a process seconds old, and each round trip to
PostgreSQL is paid by every one of them. It took fourteen (the game read three times)."""

import pytest
from django.contrib.sessions.backends.db import SessionStore

from games.rooms.creation import create_game
from games.rooms.presence import drop_presence, touch_presence
from games.rooms.socket_face import at_table, identify
from players.models import Player

pytestmark = pytest.mark.django_db


def test_a_seat_back_after_a_restart_opens_in_ten_statements(django_assert_num_queries):
    """Who (the game, the session, the player), then at the table in one hop: the game, the seat's
    presence rows, the closed row deleted, its own written, the names, the deal's moves (a new
    process has none replayed) and the room's presence rows; on PostgreSQL also BEGIN and COMMIT
    around the presence (twelve round trips)."""
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    store = SessionStore()
    store["player_id"] = str(player.id)
    store.create()
    touch_presence(game.id, "S", "before-the-restart", first=True)
    drop_presence("before-the-restart")
    session = SessionStore(session_key=store.session_key)  # read from the database, as a socket's
    with django_assert_num_queries(10):
        found, player_id, banned = identify(str(game.id), session)
        arrival = at_table(str(game.id), player_id, "S", "after-the-restart")
    assert found is not None and not banned and player_id == str(player.id)
    assert arrival.state is not None and arrival.state["v"] == game.version and arrival.seat == "S"
    assert not arrival.second_tab and arrival.away_since is not None
    assert arrival.presence is not None and arrival.presence["seats"]["S"] == "connected"


def test_an_opening_read_again_is_not_its_own_second_tab():
    """The hop is retried after a database error, which may come after its presence row was
    committed: that row is the socket's own, not a second tab of the seat."""
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    touch_presence(game.id, "S", "before-the-restart", first=True)
    drop_presence("before-the-restart")
    at_table(str(game.id), str(player.id), "S", "after-the-restart")
    assert not at_table(str(game.id), str(player.id), "S", "after-the-restart").second_tab
    assert at_table(str(game.id), str(player.id), "S", "a-second-tab").second_tab
