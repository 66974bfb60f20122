"""The seed and the nonce are sent nowhere before the date is over (issue 16, item 1).

A whole ranked daily is played through in process: the `normal` bot plays South's seat over the
websocket (the server's own bots play the rest), and every HTTP answer around it — the pages, the
API, its errors, the admin of a moderator — and every websocket frame is scanned for today's
and tomorrow's seeds and nonces (R57: the seed deals every card of the day).
"""

import datetime

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.bots import make_bot
from games.rooms import bot_runner
from leaderboards import daily
from leaderboards.models import DailyDeal, Entry
from server.asgi import application
from testsupport.rooms_fixtures import settled_rooms  # noqa: F401  (an opt-in autouse fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
TIMEOUT = 20


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.FOOT_BOT_POOL = "thread"
    settings.FOOT_BOT_DELAY = 0
    settings.FOOT_WS_RATE = 1000
    settings.FOOT_WS_BURST = 1000
    yield
    bot_runner.shutdown_pool()


class Recorder:
    """Every answer and frame the player's browser got, as text."""

    def __init__(self, client):
        self.client, self.texts = client, []

    def get(self, path: str, **extra):
        answer = self.client.get(path, **extra)
        self.keep(path, answer)
        return answer

    def post(self, path: str, body: dict):
        answer = self.client.post(path, body, content_type="application/json")
        self.keep(path, answer)
        return answer

    def keep(self, path: str, answer) -> None:
        headers = " ".join(f"{name}: {value}" for name, value in answer.items())
        self.texts.append((path, f"{answer.status_code} {headers} {answer.content.decode('utf-8', 'replace')}"))


async def play_south(comm, seed: int, frames: list) -> dict:
    """South plays with the `normal` bot until the game is over; the last view."""
    bot = make_bot("normal", seed)
    view, version = None, None
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        frames.append(message)
        if message["type"] == "state":
            view, version = message["view"], message["v"]
        elif message["type"] == "patch":
            import jsonpatch

            view, version = jsonpatch.apply_patch(view, message["ops"]), message["v"]
            kinds = {event["type"] for event in message.get("events", [])}
            if "deal_end" in kinds and "game_over" not in kinds:
                await comm.send_json_to({"type": "next_deal"})
        else:
            continue
        if view["phase"] == "over":
            return view
        if view["turn"] == "S" and message["type"] != "error":
            await comm.send_json_to({"type": "action", "action": bot.act(view), "v": version})


async def outsider_frames(ws_path: str) -> list:
    """What a socket of another browser gets from the game: a refusal or a watcher's frames."""
    from django.contrib.sessions.backends.db import SessionStore

    from players.models import Player

    store = SessionStore()
    store["player_id"] = str((await database_sync_to_async(Player.objects.create)()).id)
    await database_sync_to_async(store.create)()
    cookie = f"sessionid={store.session_key}".encode()
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]
    comm = WebsocketCommunicator(application, ws_path, headers=headers)
    got: list = []
    connected, _ = await comm.connect()
    if connected:
        while True:
            try:
                output = await comm.receive_output(timeout=2)
            except TimeoutError:
                break
            got.append(output)
            if output["type"] == "websocket.close":
                break
        await comm.disconnect()
    return got


def secrets_of(dates) -> dict[str, str]:
    found = {}
    for deal in DailyDeal.objects.filter(date__in=dates):
        found[f"seed of {deal.date}"] = str(deal.seed)
        found[f"nonce of {deal.date}"] = deal.nonce
    return found


def staff_pages(recorder_cls, game_id) -> list:
    """The admin pages of the day's deal, game and entry, as a staff member (not a superuser)
    allowed to view every one of them."""
    from django.contrib.auth.models import Permission, User
    from django.test import Client

    staff = Client()
    user = User.objects.create_user("staff", password="pw-for-tests", is_staff=True)
    views = ["view_dailydeal", "view_game", "view_move", "view_entry", "view_player", "view_moderationaction"]
    user.user_permissions.add(*Permission.objects.filter(codename__in=views))
    staff.force_login(user)
    seen = recorder_cls(staff)
    today, tomorrow = (DailyDeal.objects.get(date=daily.today() + datetime.timedelta(days=n)) for n in (0, 1))
    for path in (
        "/admin/leaderboards/dailydeal/",
        f"/admin/leaderboards/dailydeal/{today.pk}/change/",
        f"/admin/leaderboards/dailydeal/{tomorrow.pk}/change/",
        "/admin/games/game/",
        f"/admin/games/game/{game_id}/change/",
        "/admin/leaderboards/entry/",
    ):
        assert seen.get(path).status_code == 200, path
    seen.get(f"/admin/leaderboards/entry/replay/{game_id}/")  # refused until the date is closed
    return seen.texts


async def test_a_whole_daily_sends_no_seed_and_no_nonce_before_its_date_is_over(client):  # R57
    browser = Recorder(client)
    today, tomorrow = daily.today(), daily.today() + datetime.timedelta(days=1)
    http = sync_to_async(lambda fn, *args, **kw: fn(*args, **kw))
    for path in ("/", "/rules/", "/leaderboard/", "/leaderboard/check/", "/api/session"):
        await http(browser.get, path)
    game = (await http(browser.post, "/api/games", {"mode": "daily"})).json()
    assert game["ranked"] is True
    for path in (
        game["url"],
        f"/api/games/{game['id']}",
        f"/api/daily/{today}",
        f"/api/daily/{tomorrow}",
        f"/api/daily/{today + datetime.timedelta(days=2)}",
        "/api/daily/not-a-date",
        f"/api/replay/{game['id']}",
        f"/leaderboard/replay/{game['id']}/",
    ):
        await http(browser.get, path)

    seed = await database_sync_to_async(lambda: DailyDeal.objects.get(date=today).seed)()
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    comm = WebsocketCommunicator(
        application,
        game["ws"],
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    frames: list = []
    await comm.send_json_to({"type": "hint", "ref": "h"})  # refused in a ranked daily: an error frame too
    await comm.send_json_to({"type": "action", "action": {"type": "meld", "groups": "x"}, "v": 0})
    last = await play_south(comm, seed, frames)
    await comm.send_json_to({"type": "sync"})
    frames.append(await comm.receive_json_from(timeout=TIMEOUT))
    await comm.disconnect()
    assert last["phase"] == "over" and any(frame["type"] == "error" for frame in frames)
    frames.extend(await outsider_frames(game["ws"]))  # someone else asking to watch the day's game

    for path in (
        f"/api/daily/share/{game['id']}",
        f"/api/daily/result/{game['id']}",
        f"/api/watch/{game['id']}",
        f"/replay/{game['id']}/",
        "/record/",
        "/api/games",
        "/leaderboard/week/",
        "/leaderboard/all/",
        "/",
        f"/api/leaderboard/daily/{today}",
        f"/leaderboard/{today}/",
        "/leaderboard/check/",
        f"/api/daily/{today}",
        f"/api/daily/{tomorrow}",
        f"/api/games/{game['id']}",
        game["url"],
    ):
        await http(browser.get, path)
    assert await database_sync_to_async(Entry.objects.filter(game_id=game["id"]).exists)()
    admin_texts = await database_sync_to_async(staff_pages)(Recorder, game["id"])

    secrets = await database_sync_to_async(secrets_of)([today, tomorrow])
    assert len(secrets) == 4
    import json

    scanned = [*browser.texts, *admin_texts, *((f"frame {i}", json.dumps(f)) for i, f in enumerate(frames))]
    assert len(frames) > 200 and len(browser.texts) > 20
    for where, text in scanned:
        for name, secret in secrets.items():
            assert secret not in text, f"the {name} is in {where}"
