"""DEBUG is off unless asked for, and `make run` still serves the site (issue 24, finding 10).

DEBUG was on by default: a server started without the variable showed Django's debug page (the
URL patterns, the settings' names) for any mistyped address. Now the default is off. The test
starts a real Daphne exactly as `make run` does — the environment assignments of its command line
(read with `make -n run`), with no DEBUG in the environment — and checks that a newcomer's browser
plays (its session cookie comes back over plain HTTP), the static files are served, and a mistyped
address answers a friendly 404 page in English, German and Bengali, never the debug page.
"""

import shlex
import subprocess
import urllib.error
import urllib.request

from testsupport.clients import Browser
from testsupport.daphne import ROOT, DaphneServer, server_env

DEBUG_PAGE_SIGNS = ["URLconf", "Django tried these URL patterns", "Traceback", "DEBUG = True"]
NOT_FOUND_TITLES = {"en": "Page not found", "de": "Seite nicht gefunden", "bn": "পাতাটি পাওয়া যায়নি"}


def make_run_environment() -> dict[str, str]:
    """The KEY=VALUE assignments in front of the server's command in `make run`."""
    commands = subprocess.run(
        ["make", "-s", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    ).stdout
    line = next(line for line in commands.splitlines() if "server.serve" in line)
    assignments = {}
    for word in shlex.split(line):
        if "=" not in word or word.startswith("-"):
            break
        key, value = word.split("=", 1)
        assignments[key] = value
    return assignments


def fetch(url: str, language: str = "en") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(errors="replace")


def test_make_run_serves_the_site_with_debug_off_and_a_friendly_404(tmp_path, sqlite_url):
    env = server_env(sqlite_url)
    for variable in ("DEBUG", "SECURE_COOKIES", "SECRET_KEY"):  # as a newcomer's shell has them: unset
        env.pop(variable, None)
    env.update(make_run_environment())
    assert "DEBUG" not in env or env["DEBUG"] in ("0", "false")
    server = DaphneServer(env, tmp_path / "daphne.log").start()
    try:
        newcomer = Browser(server.http)
        game_id = newcomer.new_solo()
        assert [game["id"] for game in newcomer.get("/api/games")["games"]] == [game_id]  # the cookie came back
        assert fetch(server.http + "/")[0] == 200
        status, script = fetch(server.http + "/static/foot/site.js")
        assert status == 200 and "addEventListener" in script
        assert fetch(server.http + "/static/foot/foot.css")[0] == 200
        for language, title in NOT_FOUND_TITLES.items():
            for path in ("/no-such-page/", "/leaderboard/nope/x", "/g/not-a-game/"):
                status, page = fetch(server.http + path, language)
                assert status == 404, (path, status)
                assert title in page, (language, path, page[:400])
                assert not [sign for sign in DEBUG_PAGE_SIGNS if sign in page], (language, path)
    finally:
        server.stop()
