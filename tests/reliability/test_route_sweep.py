"""No input answers 500 (issue #18, finding 4): every route of server.urls, GET and POST, with odd
path values, query parameters and bodies.

The routes are walked from the URL resolver (the admin's included), so a route added later is
swept too. Each path value and query parameter gets the inputs that broke the site before
(`²`, whose `isdigit()` is true; 5,000 digits, past `int()`'s limit; `0001-01-01`; `{uuid}` and
`urn:uuid:` ids; ...) and hypothesis's text; POST bodies include 100,000 `[`, deep nesting,
bytes that are not UTF-8 and JSON of the wrong types. Django's test client raises the view's
exception instead of answering 500, so a failure shows its traceback. The sweep runs as an
anonymous visitor, as a player with a session, and as a staff user (the admin's own pages).
"""

import datetime
import json
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.leaderboards.lb_support import play_to_the_end

pytestmark = pytest.mark.django_db

ODD_VALUES = [
    "²",
    "٣",
    "۱۲",
    "0" * 5000,
    "9" * 5000,
    "-1",
    "0",
    "1e9",
    "1.5",
    "0x10",
    " 1",
    "",
    "0001-01-01",
    "9999-12-31",
    "2020-02-30",
    "2019-12-31",
    "20200101",
    "2020-1-1",
    "{00000000-0000-0000-0000-000000000000}",
    "urn:uuid:00000000-0000-0000-0000-000000000000",
    "00000000000000000000000000000000",
    "00000000-0000-0000-0000-00000000000G",
    "%00",
    "\x00",
    "%ff",
    "..",
    "../../etc/passwd",
    "ＡＢＣ",
    "😀",
    "null",
    "[]",
    "{}",
    "'\"<>",
    "a" * 3000,
    "\u202e",
    "ad\u3164min",
]
QUERY_NAMES = ["page", "step", "start", "count", "date", "next", "o", "p", "q", "e", "_changelist_filters"]
JSON_BODIES = [
    b"[" * 100_000,
    b"{" * 5000,
    b'{"a":' * 3000,
    b"[" * 4000 + b"]" * 4000,
    b"\xff\xfe\x00",
    b'"a string"',
    b"null",
    b"1" * 5000,
    json.dumps({"nickname": "x" * 100_000}).encode(),
    json.dumps({"nickname": ["a"], "mode": ["solo"], "seat": {"a": 1}, "level": 1, "position": "x"}).encode(),
    json.dumps({"nickname": None, "mode": "solo", "level": "²", "seat": "²", "position": [[[]]]}).encode(),
    json.dumps({"mode": "friends", "level": "normal", "seat": "N"}).encode(),
]
FORM_BODIES = ["nickname=%C2%B2&next=%00", "nickname=" + "x" * 5000, "next=//evil.example/", "nickname=ad%E3%85%A4min"]


def route_templates(resolver=None, prefix=""):
    """("format %(name)s string", [parameter names]) of every route, the namespaced ones included."""
    resolver = resolver or get_resolver()
    resolver._populate()
    found = set()
    for _key, entries in resolver.reverse_dict.lists():
        for possibilities, _pattern, _defaults, _converters in entries:
            for template, names in possibilities:
                found.add((prefix + template, tuple(names)))
    for namespace_prefix, child in resolver.namespace_dict.values():
        found |= route_templates(child, prefix + namespace_prefix)
    return found


ROUTES = sorted(route_templates())
SITE_ROUTES = [route for route in ROUTES if not route[0].startswith("admin/")]
# The admin as staff (its own pages, rendered: slow), with the values that name numbers, dates and ids;
# logging out would end the staff session halfway.
ADMIN_ROUTES = [route for route in ROUTES if route[0].startswith("admin/") and route[0] != "admin/logout/"]
ADMIN_VALUES = [
    "²",
    "0" * 5000,
    "-1",
    "0001-01-01",
    "{00000000-0000-0000-0000-000000000000}",
    "%00",
    "..",
    "😀",
    "a" * 3000,
]


@pytest.fixture
def world():
    """A player with a solo game, a friends lobby and yesterday's ranked daily on the board."""
    from games.models import Game, Move
    from games.rooms.creation import create_game
    from leaderboards import daily
    from players.models import Player

    player = Player.objects.create()
    solo, _ = create_game(player, "solo", "easy")
    lobby, _ = create_game(player, "friends", "easy")
    yesterday = daily.today() - datetime.timedelta(days=1)
    seed = daily.daily_seed(yesterday)
    log = play_to_the_end(seed)
    finished = Game.objects.create(
        mode="daily",
        daily_date=yesterday,
        ranked=True,
        seed=seed,
        status="finished",
        initial_position=daily.dealt_from(seed),
        seats={"S": {"player": str(player.pk)}, "W": {"bot": "normal"}, "N": {"bot": "normal"}, "E": {"bot": "normal"}},
        version=len(log),
        host=player,
    )
    Move.objects.bulk_create(
        [Move(game=finished, seq=i + 1, seat=seat, action=action) for i, (seat, action) in enumerate(log)]
    )
    late = datetime.datetime.combine(yesterday, datetime.time(23), tzinfo=datetime.UTC)  # played during its date
    for seq in range(1, len(log) + 1):
        Move.objects.filter(game=finished, seq=seq).update(
            created=late - datetime.timedelta(seconds=2 * (len(log) - seq))
        )
    assert daily.on_game_finished(finished) is not None  # ranked and on the board: its replay can be swept
    good = {
        "game_id": [str(solo.id), str(finished.id), str(finished.id).upper(), lobby.invite_code],
        "date": [yesterday.isoformat(), daily.today().isoformat()],
        "code": [lobby.invite_code],
    }
    return player, good


def visitors(player) -> list[Client]:
    """An anonymous visitor and the player's own browser."""
    from django.contrib.sessions.backends.db import SessionStore

    seated = Client()
    store = SessionStore()
    store["player_id"] = str(player.id)
    store.create()
    assert store.session_key is not None  # create() saved it
    seated.cookies["sessionid"] = store.session_key
    return [Client(), seated]


def staff_client() -> Client:
    staff = Client()
    staff.force_login(User.objects.create_superuser("sweeper", password="x" * 20))
    return staff


def fill(template: str, names: list[str], value: str) -> str:
    return "/" + template % {name: quote(value, safe="") for name in names}


def assert_no_500(response, what: str):
    assert response.status_code < 500, f"{what} answered {response.status_code}"


def sweep_one(client, path: str):
    assert_no_500(client.get(path), f"GET {path[:120]}")
    assert_no_500(client.post(path), f"POST {path[:120]}")


def filled_paths(template: str, names: list[str], values: list[str]) -> list[str]:
    """The route with each value in its parameters; a route without parameters as it is."""
    if not names:
        return ["/" + template]
    return [fill(template, names, value) for value in values]


def sweep_paths(client, routes, values, good):
    for template, names in routes:
        for path in filled_paths(template, names, values + [v for name in names for v in good.get(name, [])]):
            sweep_one(client, path)


def sweep_queries(client, routes, values, good):
    for template, names in routes:
        path = fill(template, names, good.get(names[0], ["x"])[0]) if names else "/" + template
        for value in values:
            sweep_one(client, f"{path}?{urlencode(dict.fromkeys(QUERY_NAMES, value))}")


def test_every_route_and_every_odd_path_value_answers_without_a_500(world):
    player, good = world
    for client in visitors(player):
        sweep_paths(client, SITE_ROUTES, ODD_VALUES, good)
    sweep_paths(Client(), ADMIN_ROUTES, ADMIN_VALUES[:3], good)  # the login redirect
    sweep_paths(staff_client(), ADMIN_ROUTES, ADMIN_VALUES, good)


def test_every_route_with_odd_query_parameters_answers_without_a_500(world):
    player, good = world
    for client in visitors(player):
        sweep_queries(client, SITE_ROUTES, ODD_VALUES, good)
    sweep_queries(staff_client(), ADMIN_ROUTES, ADMIN_VALUES[:4], good)


def test_every_route_with_odd_bodies_answers_without_a_500(world):
    player, good = world
    for client in visitors(player):
        for template, names in SITE_ROUTES:
            path = fill(template, names, good.get(names[0], ["x"])[0]) if names else "/" + template
            for body in JSON_BODIES:
                assert_no_500(client.post(path, body, content_type="application/json"), f"POST {path} {body[:40]!r}")
            for form in FORM_BODIES:
                assert_no_500(
                    client.post(path, form, content_type="application/x-www-form-urlencoded"),
                    f"POST {path} {form[:40]!r}",
                )


@hypothesis_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(ROUTES),
    value=st.text(max_size=40),
    query=st.text(max_size=40),
    body=st.binary(max_size=200)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=10), inner),
        max_leaves=20,
    ).map(lambda v: json.dumps(v).encode()),
)
def test_hypothesis_finds_no_input_that_answers_500(world, route, value, query, body):
    template, names = route
    path = fill(template, names, value) if names else "/" + template
    client = Client()
    params = dict.fromkeys(QUERY_NAMES, query)
    assert_no_500(client.get(path, params), f"GET {path} {query!r}")
    assert_no_500(client.post(path, body, content_type="application/json"), f"POST {path} {body[:40]!r}")


def test_every_html_response_carries_the_content_security_policy(world):
    from server.csp import DEFAULT_POLICY

    player, good = world
    staff = staff_client()
    html = 0
    for client, routes in [(visitors(player)[1], SITE_ROUTES), (staff, ADMIN_ROUTES)]:
        for template, names in routes:
            for path in filled_paths(template, names, [v for name in names for v in good.get(name, [])]):
                response = client.get(path)
                if response.get("Content-Type", "").startswith("text/html"):
                    html += 1
                    assert response["Content-Security-Policy"] == DEFAULT_POLICY, template
    assert html > 20  # the site's pages and the admin's were among them
