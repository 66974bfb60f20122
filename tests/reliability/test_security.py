"""Security: the server's refusals, in process (Django's test client, channels' communicator).

- a websocket from a foreign Origin (or none) is refused before any game code runs;
- a player cannot take a seat or a game that is not theirs (HTTP join/start, socket actions);
- every POST needs the CSRF token (Client(enforce_csrf_checks=True));
- the admin needs a staff login;
- `manage.py check --deploy` passes with the production settings of docs/RELIABILITY.md.
The hidden-card check over whole games is in test_hidden_cards.py.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from games.models import Game, Move
from games.rooms.creation import create_game
from players.models import Player
from server.asgi import application
from testsupport.rooms_fixtures import fast_bots  # noqa: F401  (opt-in autouse fixtures)

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10


def session_cookie(player) -> bytes:
    store = SessionStore()
    store["player_id"] = str(player.id)
    store.create()
    return f"sessionid={store.session_key}".encode()


def socket_to(game_id, origin: bytes | None = b"http://testserver", cookie: bytes | None = None):
    headers = [(b"host", b"testserver")] + ([(b"origin", origin)] if origin is not None else [])
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=headers)


async def next_of(comm, *types):
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] in types:
            return message


# ---------------------------------------------------------------- origin


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://testserver.evil.example", b"null", None])
async def test_a_websocket_from_a_foreign_origin_is_refused(origin):
    player = await database_sync_to_async(Player.objects.create)()
    game, _ = await database_sync_to_async(create_game)(player, "solo", "easy")
    comm = socket_to(game.id, origin, await database_sync_to_async(session_cookie)(player))
    connected, _code = await comm.connect(timeout=TIMEOUT)
    assert not connected  # refused at the handshake: no state, no seat, nothing sent
    assert await database_sync_to_async(Move.objects.filter(game=game).count)() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_echo_socket_refuses_a_foreign_origin_too():
    comm = WebsocketCommunicator(application, "/ws/echo/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert not connected


# ---------------------------------------------------------------- seats and games that are not yours


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_another_players_socket_on_my_game_is_a_spectator_that_cannot_act():
    owner = await database_sync_to_async(Player.objects.create)()
    intruder = await database_sync_to_async(Player.objects.create)()
    game, _ = await database_sync_to_async(create_game)(owner, "solo", "easy")
    comm = socket_to(game.id, cookie=await database_sync_to_async(session_cookie)(intruder))
    assert (await comm.connect(timeout=TIMEOUT))[0]
    state = await next_of(comm, "state")
    assert state["seat"] is None and "hand" not in state["view"] and "options" not in state["view"]
    attempts: list[dict[str, object]] = [
        {"type": "action", "action": {"type": "draw"}, "v": 0, "ref": "a"},
        {"type": "action", "action": {"type": "draw"}, "v": 0, "seat": "S", "ref": "b"},  # naming the seat
        {"type": "check", "action": {"type": "draw"}, "ref": "c"},
        {"type": "hint", "ref": "d"},
        {"type": "next_deal", "ref": "e"},
    ]
    for attempt in attempts:
        await comm.send_json_to(attempt)
        refusal = await next_of(comm, "error")
        assert refusal["code"] == "not_seated" and refusal["ref"] == attempt["ref"]
    await comm.disconnect()
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.version == 0 and stored.position == game.position


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_forged_or_missing_session_sees_only_the_public_view():
    owner = await database_sync_to_async(Player.objects.create)()
    game, _ = await database_sync_to_async(create_game)(owner, "solo", "easy")
    for cookie in (None, b"sessionid=forged0000000000000000000000000", f"sessionid={owner.id}".encode()):
        comm = socket_to(game.id, cookie=cookie)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        state = await next_of(comm, "state")
        assert state["seat"] is None and "hand" not in state["view"]
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_server_decides_the_seat_whatever_the_message_names():
    """S's socket sends an action naming W: the room applies it as S's own move (R24), never W's."""
    owner = await database_sync_to_async(Player.objects.create)()
    game, _ = await database_sync_to_async(create_game)(owner, "solo", "easy")
    comm = socket_to(game.id, cookie=await database_sync_to_async(session_cookie)(owner))
    assert (await comm.connect(timeout=TIMEOUT))[0]
    state = await next_of(comm, "state")
    assert state["seat"] == "S" and state["view"]["turn"] == "S"
    await comm.send_json_to(
        {
            "type": "action",
            "seat": "W",
            "player": "someone-else",
            "action": {"type": "draw", "seat": "W"},
            "v": 0,
            "ref": "forged",
        }
    )
    answer = await next_of(comm, "patch", "error")
    await comm.disconnect()
    first = await database_sync_to_async(lambda: Move.objects.filter(game=game, seq=1).first())()
    if answer["type"] == "patch":
        assert first is not None, "a patch without its move"
        assert answer["ref"] == "forged" and first.seat == "S"
    else:  # refusing the stray field is fine too; then nothing was written
        assert first is None


@pytest.mark.django_db
def test_http_join_and_start_refuse_seats_and_games_that_are_not_yours():
    host, friend, stranger = Client(), Client(), Client()
    for client in (host, friend, stranger):
        client.get("/api/session")
    lobby = host.post("/api/games", {"mode": "friends"}, content_type="application/json").json()
    solo = host.post("/api/games", {"mode": "solo"}, content_type="application/json").json()

    def join(client, game_id, body):
        return client.post(f"/api/games/{game_id}/join", body, content_type="application/json")

    assert join(friend, lobby["id"], {"seat": "N"}).json()["seat"] == "N"
    assert join(stranger, lobby["id"], {"seat": "N"}).json()["code"] == "seat_taken"
    assert join(stranger, lobby["id"], {"seat": "S"}).json()["code"] == "seat_taken"  # the host's seat
    assert join(stranger, lobby["id"], {"seat": "X"}).status_code == 400
    assert join(stranger, solo["id"], {}).json()["code"] == "not_friends"  # a solo game has no free seat
    assert join(stranger, "00000000-0000-0000-0000-000000000000", {}).status_code == 404
    assert friend.post(f"/api/games/{lobby['id']}/start").json()["code"] == "not_host"
    assert host.post(f"/api/games/{lobby['id']}/start").status_code == 200
    assert join(stranger, lobby["id"], {}).json()["code"] == "already_started"
    seats = Game.objects.get(pk=lobby["id"]).seats
    assert {seat: "player" in spec for seat, spec in seats.items()} == {"S": True, "N": True, "W": False, "E": False}


# ---------------------------------------------------------------- CSRF


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path,body",
    [
        ("/api/games", {"mode": "solo"}),
        ("/api/nickname", {"nickname": "Robin"}),
        ("/api/link", {}),
        ("/api/games/{game}/join", {}),
        ("/api/games/{game}/start", {}),
    ],
)
def test_every_post_needs_the_csrf_token(path, body):
    owner = Client(enforce_csrf_checks=True)
    token = owner.get("/api/session").json()["csrf"]
    game = owner.post("/api/games", {"mode": "friends"}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert game.status_code == 201
    url = path.format(game=game.json()["id"])
    attacker = Client(enforce_csrf_checks=True)
    attacker.get("/api/session")
    before = (Game.objects.count(), list(Player.objects.values_list("nickname", flat=True)))
    refused = attacker.post(url, body, content_type="application/json")  # the cookie rides along; no header
    assert refused.status_code == 403
    wrong = attacker.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN="x" * 64)
    assert wrong.status_code == 403
    assert (Game.objects.count(), list(Player.objects.values_list("nickname", flat=True))) == before


@pytest.mark.django_db
def test_a_post_with_the_token_is_accepted():
    client = Client(enforce_csrf_checks=True)
    token = client.get("/api/session").json()["csrf"]
    answer = client.post("/api/games", {"mode": "solo"}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 201


@pytest.mark.django_db
def test_the_admin_login_form_needs_csrf_too():
    User.objects.create_user("mod", password="a-long-password-1", is_staff=True)
    client = Client(enforce_csrf_checks=True)
    answer = client.post("/admin/login/", {"username": "mod", "password": "a-long-password-1"})
    assert answer.status_code == 403 and "_auth_user_id" not in client.session


# ---------------------------------------------------------------- admin


ADMIN_PAGES = ["/admin/", "/admin/games/game/", "/admin/players/player/", "/admin/auth/user/"]


@pytest.mark.django_db
@pytest.mark.parametrize("page", ADMIN_PAGES)
def test_admin_pages_need_a_staff_login(page):
    anonymous = Client()
    answer = anonymous.get(page)
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")
    User.objects.create_user("plain", password="a-long-password-1", is_staff=False)
    plain = Client()
    assert plain.login(username="plain", password="a-long-password-1")
    answer = plain.get(page)
    assert answer.status_code == 302 and answer["Location"].startswith("/admin/login/")


@pytest.mark.django_db
def test_a_staff_login_opens_the_admin():
    User.objects.create_superuser("boss", password="a-long-password-1")
    client = Client()
    assert client.login(username="boss", password="a-long-password-1")
    assert client.get("/admin/").status_code == 200


# ---------------------------------------------------------------- deployment checks


def production_env(**changes) -> dict:
    """The production environment of docs/RELIABILITY.md ("Production settings")."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "PYTEST"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "server.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(60),
            "ALLOWED_HOSTS": "foot.example.org",
            "CSRF_TRUSTED_ORIGINS": "https://foot.example.org",
            "SECURE_SSL_REDIRECT": "1",
            "SECURE_HSTS_SECONDS": "31536000",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
            "SECURE_HSTS_PRELOAD": "1",
            "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO=https",
        }
    )
    env.update(changes)
    return env


def check_deploy(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_the_production_settings():
    result = check_deploy(production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_with_the_development_key():
    """The embedded development key must never pass as a production one."""
    env = production_env()
    env.pop("SECRET_KEY")
    result = check_deploy(env)
    assert result.returncode != 0 and "security.W009" in result.stdout + result.stderr
