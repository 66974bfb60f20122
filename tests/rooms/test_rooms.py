"""The room service against the database: moves as transactions, versions, replay, lobbies, dailies."""

import datetime

import jsonpatch
import pytest

from games.engine import Game as EngineGame
from games.engine import RuleError
from games.models import Game, Move, Presence
from games.replay import replay
from games.rooms.bot_plans import plan_bot_move
from games.rooms.creation import (
    REGISTERED_MODES,
    create_game,
    game_for_invite,
    join_game,
    start_friends_game,
    utc_today,
)
from games.rooms.errors import RoomError
from games.rooms.moves import MoveResult, announce_finished, apply_move, next_deal
from games.rooms.patches import view_patch
from games.rooms.presence import arrive, drop_presence, seat_presence, touch_presence
from games.rooms.seat_views import PUBLIC, state_message
from games.signals import game_finished
from leaderboards import daily
from players.models import Player

from .simple_player import simple_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    return Player.objects.create()


def play_one(game_id) -> MoveResult:
    game = Game.objects.get(pk=game_id)
    engine_game = EngineGame.from_position(game.position)
    seat = engine_game.turn
    assert seat is not None, "the game is over"
    return apply_move(game_id, seat, simple_action(engine_game.view(seat)), game.version)


def play_until(game_id, event_type: str, limit: int = 2000) -> MoveResult:
    for _ in range(limit):
        result = play_one(game_id)
        if any(e["type"] == event_type for e in result.parts[PUBLIC]["events"]):
            return result
    raise AssertionError(f"no {event_type} within {limit} moves")


def test_a_solo_game_starts_dealt_with_bots_at_version_0(player):
    game, created = create_game(player, "solo", "easy")
    assert created and game.status == Game.PLAYING and game.version == 0
    assert game.seats == {
        "S": {"player": str(player.id)},
        "W": {"bot": "easy"},
        "N": {"bot": "easy"},
        "E": {"bot": "easy"},
    }
    assert game.position == game.initial_position == EngineGame.new(game.seed).to_position()
    assert game.seat_of(player.id) == "S"


def test_unknown_level_is_refused(player):
    with pytest.raises(RoomError) as refused:
        create_game(player, "solo", "grandmaster")
    assert refused.value.code == "bad_level"


def test_a_move_appends_one_move_and_one_version_and_patches_every_listener(player):
    game, _ = create_game(player, "solo", "easy")
    readers = {"S": "S", PUBLIC: None}  # the key of each part -> the seat whose socket gets it
    views = {key: state_message(game, seat)["view"] for key, seat in readers.items()}
    result = apply_move(game.id, "S", {"type": "draw"}, 0)
    game.refresh_from_db()
    assert result.version == game.version == 1
    assert list(Move.objects.filter(game=game).values_list("seq", "seat", "action")) == [(1, "S", {"type": "draw"})]
    # The human seat and the spectators; a bot seat has no socket to send to.
    assert set(result.parts) == set(readers)
    # Each part, applied to the view the socket's last state held, gives the view a state sent now
    # holds, and that is the stored position's view (a resync from the database agrees).
    stored = EngineGame.from_position(game.position)
    for key, part in result.parts.items():
        after = jsonpatch.apply_patch(views[key], part["ops"])
        assert after == state_message(game, readers[key])["view"]
        assert after == (stored.view(key) if key != PUBLIC else stored.public_view())
    # R27: the drawer sees the drawn cards, nobody else does.
    assert "cards" in result.parts["S"]["events"][0]
    assert all("cards" not in part["events"][0] for key, part in result.parts.items() if key != "S")


def test_a_stale_version_is_refused_and_changes_nothing(player):
    game, _ = create_game(player, "solo", "easy")
    apply_move(game.id, "S", {"type": "draw"}, 0)
    with pytest.raises(RoomError) as refused:
        apply_move(game.id, "S", {"type": "discard", "card": "XX"}, 0)
    assert refused.value.code == "stale_version"
    assert Move.objects.filter(game=game).count() == 1


def test_a_refused_action_writes_nothing(player):
    game, _ = create_game(player, "solo", "easy")
    card = next(iter(EngineGame.from_position(game.position).view("S")["hand"]))
    with pytest.raises(RuleError) as refused:
        apply_move(game.id, "S", {"type": "discard", "card": card}, 0)  # R25: draw first
    assert refused.value.code == "must_draw_first"
    game.refresh_from_db()
    assert game.version == 0 and game.position == game.initial_position and not game.moves.exists()


def test_another_seat_cannot_act_for_the_seat_to_play(player):
    game, _ = create_game(player, "solo", "easy")
    with pytest.raises(RuleError) as refused:
        apply_move(game.id, "W", {"type": "draw"}, 0)
    assert refused.value.code == "not_your_turn"


def test_replaying_the_moves_gives_the_stored_position(player):
    # R59: the deals and the sequence of actions determine everything.
    game, _ = create_game(player, "solo", "easy")
    for _ in range(40):
        play_one(game.id)
    game.refresh_from_db()
    assert replay(game).to_position() == game.position
    assert game.moves.count() == game.version == 40


def test_after_a_deal_ends_the_bots_wait_for_the_humans_next_deal(player, settings):
    settings.FOOT_BOT_DELAY = 0
    game, _ = create_game(player, "solo", "easy")
    result = play_until(game.id, "deal_end")
    game.refresh_from_db()
    assert result.awaiting == game.awaiting == ["S"]
    engine_game = EngineGame.from_position(game.position)
    if engine_game.turn != "S":
        assert plan_bot_move(game.id) is None  # bots wait while the human reads the score
    assert next_deal(game.id, "S") is True
    game.refresh_from_db()
    assert game.awaiting == []
    if engine_game.turn != "S":
        planned = plan_bot_move(game.id)
        assert planned is not None and planned.seat == engine_game.turn


def test_a_bot_turn_is_planned_with_the_seats_view_and_version(player):
    game, _ = create_game(player, "solo", "hard")
    assert plan_bot_move(game.id) is None  # South (human) is to play
    apply_move(game.id, "S", {"type": "draw"}, 0)
    view = EngineGame.from_position(Game.objects.get(pk=game.id).position).view("S")
    apply_move(game.id, "S", simple_action(view), 1)
    plan = plan_bot_move(game.id)
    assert plan is not None, "West (a bot) is to play"
    assert (plan.seat, plan.level, plan.version) == ("W", "hard", 2)
    assert plan.view["seat"] == "W" and "hand" in plan.view


def test_friends_lobby_join_and_start_fill_empty_seats_with_bots(player):
    friend, stranger = Player.objects.create(), Player.objects.create()
    game, created = create_game(player, "friends")
    assert game.invite_code is not None, "a friends game has an invite code"
    assert created and game.status == Game.LOBBY and len(game.invite_code) == 6
    invited = game_for_invite(game.invite_code.lower())
    assert invited is not None and invited.id == game.id
    joined, seat = join_game(game.id, friend)
    assert seat == "N" and joined.seats["N"]["player"] == str(friend.id)  # the partner's seat first
    assert join_game(game.id, friend)[1] == "N"  # joining twice keeps the seat
    with pytest.raises(RoomError) as taken:
        join_game(game.id, stranger, "N")
    assert taken.value.code == "seat_taken"
    with pytest.raises(RoomError) as not_host:
        start_friends_game(game.id, friend)
    assert not_host.value.code == "not_host"
    started = start_friends_game(game.id, player)
    assert started.status == Game.PLAYING and started.version == 0
    assert started.seats["W"] == {"bot": "normal"} and started.seats["E"] == {"bot": "normal"}
    with pytest.raises(RoomError) as late:
        join_game(game.id, stranger)
    assert late.value.code == "already_started"


def test_a_friends_lobby_holds_four_players_at_most(player):
    game, _ = create_game(player, "friends")
    for _ in range(3):
        join_game(game.id, Player.objects.create())
    with pytest.raises(RoomError) as full:
        join_game(game.id, Player.objects.create())
    assert full.value.code == "game_full"


def test_the_first_daily_of_a_date_is_ranked_and_resumed_until_finished(player):
    from leaderboards.daily import daily_seed

    first, created = create_game(player, "daily")
    assert created and first.ranked and first.daily_date == utc_today()
    assert first.seed == daily_seed(first.daily_date)  # R57: the same deals for everyone
    assert {first.seats[s]["bot"] for s in "WNE"} == {"normal"}
    again, created_again = create_game(player, "daily")
    assert again.id == first.id and not created_again
    Game.objects.filter(pk=first.id).update(status=Game.FINISHED)
    second, created_second = create_game(player, "daily")
    assert created_second and second.id != first.id and not second.ranked
    other, _ = create_game(Player.objects.create(), "daily")
    assert other.ranked and other.initial_position == first.initial_position


def test_an_absent_friend_is_played_by_a_bot_after_the_grace(player, settings):
    friend = Player.objects.create()
    game, _ = create_game(player, "friends")
    join_game(game.id, friend, "W")
    start_friends_game(game.id, player)
    game.refresh_from_db()
    settings.FOOT_AWAY_GRACE_SECONDS = 3600
    touch_presence(game.id, "S", "channel-south", first=True)
    assert seat_presence(game)["S"] == "connected"
    assert seat_presence(game)["W"] == "disconnected"
    assert plan_bot_move(game.id) is None  # South is connected and to play
    drop_presence("channel-south")
    assert seat_presence(game)["S"] == "disconnected"
    settings.FOOT_AWAY_GRACE_SECONDS = 0
    assert seat_presence(game)["S"] == "away"
    plan = plan_bot_move(game.id)
    assert plan is not None and plan.seat == "S" and plan.level == "normal"
    touch_presence(game.id, "S", "channel-south-2", first=True)
    assert plan_bot_move(game.id) is None  # back: the seat is the human's again
    assert Presence.objects.filter(game=game, seat="S").count() == 1


def test_a_socket_back_after_a_restart_is_present_in_three_statements(player, django_assert_max_num_queries):
    """After a restart every socket of the process connects again at once (issue 26): its
    presence (the seat's rows read, the closed one of the socket before deleted, its own row
    written) takes three statements; it took eleven round trips to PostgreSQL."""
    game, _ = create_game(player, "solo", "easy")
    touch_presence(game.id, "S", "before-the-restart", first=True)
    drop_presence("before-the-restart")
    with django_assert_max_num_queries(3):
        second_tab, absent_since = arrive(str(game.id), "S", "after-the-restart")
    assert not second_tab and absent_since is not None
    rows = Presence.objects.filter(game=game).values_list("channel_name", "connected")
    assert list(rows) == [("after-the-restart", True)]
    assert arrive(str(game.id), "S", "a-second-tab")[0]  # the seat is open elsewhere now


def test_moves_are_append_only(player):
    game, _ = create_game(player, "solo", "easy")
    apply_move(game.id, "S", {"type": "draw"}, 0)
    move = Move.objects.get(game=game)
    move.action = {"type": "discard"}
    with pytest.raises(ValueError, match="append-only"):
        move.save()


def test_utc_today_is_a_date():
    assert isinstance(utc_today(), datetime.date)


def json_values():
    from hypothesis import strategies as st

    leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["4H", "JK", "a/b", "t~0"])
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(["S", "W", "hand", "a/b", "~x", "0"]), inner, max_size=4)
        ),
        max_leaves=20,
    )


def test_view_patch_turns_any_view_into_any_other():
    from hypothesis import example, given
    from hypothesis import settings as hypothesis_settings

    @hypothesis_settings(max_examples=500, deadline=None)
    @given(json_values(), json_values())
    @example(before={"~x": [None, {"S": []}]}, after={"~x": [[], {}]})  # make_patch's move ops have a `from`
    def check(before, after):
        assert jsonpatch.apply_patch(before, view_patch(before, after)) == after

    check()


def test_the_last_move_of_a_ranked_daily_writes_its_entry(player):
    from leaderboards.models import Entry

    game, _ = create_game(player, "daily")
    result = play_until(game.id, "game_over", limit=5000)
    game.refresh_from_db()
    assert result.status == game.status == Game.FINISHED
    totals = EngineGame.from_position(game.position).scores()["totals"]
    entry = Entry.objects.get(game_id=game.id)  # R57: the ranked result, from the server's replay
    assert (entry.player_id, entry.score, entry.opponents_score) == (player.id, totals["NS"], totals["EW"])
    with pytest.raises(RoomError) as over:
        apply_move(game.id, "S", {"type": "draw"}, game.version)
    assert over.value.code == "game_over"


def test_a_stored_position_the_engine_refuses_is_shown_from_the_replay(player, monkeypatch):
    game, _ = create_game(player, "solo", "easy")
    apply_move(game.id, "S", {"type": "draw"}, 0)
    game.refresh_from_db()
    expected = EngineGame.from_position(game.position).view("S")
    real_from_position = EngineGame.from_position  # bound to EngineGame before the patch

    def refuse_the_current_position(cls, position):
        if position == game.position:  # as the engine did with its own final position on some seeds
            raise RuleError("invalid_position", reason="a red three is among N's cards (R34)")
        return real_from_position(position)

    monkeypatch.setattr(EngineGame, "from_position", classmethod(refuse_the_current_position))
    assert state_message(game, "S")["view"] == expected


def test_the_end_of_a_game_is_announced_and_a_failing_listener_is_only_logged(player, caplog):
    game, _ = create_game(player, "solo", "easy")
    heard = []

    def listener(sender, game, **kwargs):
        heard.append(game.id)

    def failing(sender, game, **kwargs):
        raise RuntimeError("a listener's bug")

    game_finished.connect(listener, weak=False)
    game_finished.connect(failing, weak=False)
    try:
        announce_finished(game)
    finally:
        game_finished.disconnect(listener)
        game_finished.disconnect(failing)
    assert heard == [game.id]
    assert f"failed on the end of game {game.id}" in caplog.text


def test_leaderboards_adds_the_daily_mode():
    # Its end-of-game listener is proved by the ranked daily's Entry (test above, R57).
    assert REGISTERED_MODES[Game.DAILY] is daily.daily_game
