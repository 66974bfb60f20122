"""Fixtures of the leaderboard tests: players, entries and finished daily games with real moves."""

import datetime
import uuid

import pytest
from django.utils import timezone

from games.engine import Game as EngineGame
from tests.leaderboards.lb_support import play_to_the_end


@pytest.fixture(autouse=True)
def english_to_begin_with():
    """A request in another language leaves it active in the test's thread (LocaleMiddleware);
    each test starts in English again."""
    yield
    from django.utils import translation

    translation.activate("en")


@pytest.fixture
def make_player(db):
    from players.models import Player

    def make(nickname=None, **fields):
        player = Player.objects.create(**fields)
        if nickname:
            from leaderboards.nicknames import set_nickname

            set_nickname(player, nickname)
            player.refresh_from_db()
        return player

    return make


@pytest.fixture
def moderators_group(db):
    """The "moderators" group of the data migration leaderboards 0003. The flush after a
    transactional test removes it (the permissions it names are made again after a flush, the
    group is not), and xdist can run one before these tests on a worker: then the group is made
    again from the migration's own list of permissions, found by codename."""
    from importlib import import_module

    from django.contrib.auth.models import Group, Permission

    migration = import_module("leaderboards.migrations.0003_moderators_group")
    group, made = Group.objects.get_or_create(name=migration.GROUP)
    if made:
        group.permissions.set(Permission.objects.filter(codename__in=migration.PERMISSIONS))
    return group


@pytest.fixture
def moderator_client(client, moderators_group):
    """A logged-in member of the moderators group (client.user is the user)."""
    from django.contrib.auth.models import User

    user = User.objects.create_user("mod", password="pw-for-tests", is_staff=True)
    user.groups.add(moderators_group)
    client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def superuser_client(db):
    from django.contrib.auth.models import User
    from django.test import Client

    root = Client()
    root.force_login(User.objects.create_superuser("root", password="pw-for-tests"))
    return root


@pytest.fixture
def make_entry(db):
    """An Entry written as on_game_finished would (its record refreshed), without playing a game."""
    from leaderboards.boards import refresh_record
    from leaderboards.models import Entry

    def make(player, date, score, opponents_score=0, network=""):
        result = "won" if score > opponents_score else "lost" if score < opponents_score else "draw"
        entry = Entry.objects.create(
            player=player,
            date=date,
            game_id=uuid.uuid4(),
            score=score,
            opponents_score=opponents_score,
            result=result,
            finished_at=timezone.now(),
            network=network,
        )
        refresh_record(player)
        return entry

    return make


def move_times(date: datetime.date, count: int, seconds_apart: float, finished_at=None) -> list:
    """When each of `count` moves was stored: `seconds_apart` apart, the last at `finished_at`
    (default: during the date — its 23:00 UTC, or now if that is still to come)."""
    if finished_at is None:
        late_in_the_date = datetime.datetime.combine(date, datetime.time(23), tzinfo=datetime.UTC)
        finished_at = min(timezone.now(), late_in_the_date)
    return [finished_at - datetime.timedelta(seconds=seconds_apart * (count - 1 - i)) for i in range(count)]


@pytest.fixture
def finished_daily(db):
    """A stored, finished daily Game of `date` for `player`, its moves from a real random game,
    stored `seconds_apart` apart and the last at `finished_at` (default: during the date)."""

    def make(
        player,
        date: datetime.date,
        rng_seed: int = 0,
        ranked: bool = True,
        seconds_apart: float = 1.5,
        finished_at=None,
    ):
        from games.models import Game, Move
        from leaderboards.daily import daily_seed

        seed = daily_seed(date)
        seats = {
            "S": {"player": str(player.pk)},
            "W": {"bot": "normal"},
            "N": {"bot": "normal"},
            "E": {"bot": "normal"},
        }
        log = play_to_the_end(seed, rng_seed)
        game = Game.objects.create(
            mode="daily",
            daily_date=date,
            ranked=ranked,
            seed=seed,
            seats=seats,
            status="finished",
            version=len(log),
            host=player,
            initial_position=EngineGame.new(seed).to_position(),
        )
        Move.objects.bulk_create(
            [Move(game=game, seq=i + 1, seat=seat, action=action) for i, (seat, action) in enumerate(log)]
        )
        for seq, created in enumerate(move_times(date, len(log), seconds_apart, finished_at), start=1):
            Move.objects.filter(game=game, seq=seq).update(created=created)  # auto_now_add set "now"
        return game

    return make
