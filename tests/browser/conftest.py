"""Fixtures for the browser tests: one real Daphne per test session (per xdist worker) on a fresh,
migrated SQLite file with the test hook on (FOOT_TEST_HOOKS=1) and the bots at full speed, and
Debian's Chromium driven by Python Playwright at desk (1440×900) and phone (390×844, touch) size.

Every test gets a new browser context, so a new session cookie: a new anonymous player.

Screenshots go to SCREENSHOTS_DIR when it is set (`make screenshots` sets docs/screenshots, the
docs' images), else to a folder in the system's temp dir: a test run leaves the checkout as it was.
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from playwright import sync_api

from testsupport.daphne import DaphneServer, server_env
from testsupport.services import service_missing

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESK = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or Path(tempfile.gettempdir()) / "foot-screenshots")
SCREENSHOTS.mkdir(parents=True, exist_ok=True)


def load_engine_helpers():
    """tests/engine/helpers.py (position builders), loaded by path: the test dirs are not one package."""
    path = ROOT / "tests" / "engine" / "helpers.py"
    spec = importlib.util.spec_from_file_location("foot_engine_helpers", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class LiveSite(DaphneServer):
    """The shared Daphne subprocess (testsupport.daphne), serving the whole site; `url` is its base."""

    @property
    def url(self) -> str:
        return self.http

    def shell(self, script: str) -> str:
        """Runs a few lines of Django in the site's database (manage.py shell, the site's
        environment) and gives back the last line they printed."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", script],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.strip().splitlines()
        return lines[-1] if lines else ""


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    database_url = f"sqlite:///{folder / 'db.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=server_env(database_url),
        check=True,
        timeout=180,
    )
    # Every test's players come from 127.0.0.1, as bench_load's do: a quick machine made more than
    # the 60 games a minute one network may start (429). The per-session limits stay as they are.
    env = server_env(database_url, FOOT_LIMIT_NETWORK_FACTOR="10")
    live = LiveSite(env, folder / "daphne.log").start(timeout=40)
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        service_missing("Debian's Chromium is not installed at /usr/bin/chromium")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def functions_only(wait_for_function):
    """Playwright evaluates a wait_for_function *expression* with eval() in the page, which the
    site's Content-Security-Policy (server/csp.py: no 'unsafe-eval') refuses; as a function it
    is called without eval. So the tests' expressions are wrapped in one."""

    def wait(expression, *args, **kwargs):
        if isinstance(expression, str) and "=>" not in expression and not expression.lstrip().startswith("function"):
            expression = f"() => ({expression})"
        return wait_for_function(expression, *args, **kwargs)

    return wait


def new_page(browser, size: dict, locale: str = "en-GB", **options):
    context = browser.new_context(viewport=size, locale=locale, **options)
    context.set_default_timeout(15000)
    # Moves shown at once (the table's "fast" speed), so tests wait for the server, not for animations.
    context.add_init_script("try { localStorage.setItem('foot.speed', 'fast'); } catch (e) {}")
    page = context.new_page()
    page.wait_for_function = functions_only(page.wait_for_function)
    page.foot_errors = []
    page.on("pageerror", lambda error: page.foot_errors.append(str(error)))
    return page


@pytest.fixture
def page(browser):
    desk = new_page(browser, DESK)
    yield desk
    desk.context.close()


@pytest.fixture
def phone(browser):
    small = new_page(browser, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    yield small
    small.context.close()


@pytest.fixture
def make_page(browser):
    """new pages in other sizes or languages: make_page(size, locale=...)."""
    made = []

    def build(size=DESK, **options):
        made.append(new_page(browser, size, **options))
        return made[-1]

    yield build
    for built in made:
        built.context.close()


def start_game_from(page, site, position: dict, level: str = "normal") -> dict:
    """Uses the test hook: a solo game for the page's player (its cookies) from `position`."""
    page.goto(site.url + "/rules/")
    answer = page.request.post(
        site.url + "/test/start-position",
        data=json.dumps({"position": position, "level": level}),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status == 201, answer.text()
    return answer.json()


def open_table(page, site, game: dict) -> None:
    page.goto(site.url + game["url"] + "?speed=fast")
    page.wait_for_selector("#table[aria-busy=false]")


def hand(page):
    return page.get_by_role("region", name="Your hand").get_by_role("button")


CORNER = {"x": 3, "y": 8}


def pick(page, card_name: str) -> None:
    """Selects one not yet selected copy of the named card in the hand, tapped at its index
    corner (the part of a card that stays visible when the hand overlaps)."""
    page.locator(f'#hand button[aria-label="{card_name}"][aria-pressed="false"]').first.click(position=CORNER)


def version(page) -> int:
    """The version of the view the table shows."""
    return int(page.locator("#table").get_attribute("data-v"))


def wait_for_my_turn(page, since: int, timeout: float = 60000) -> None:
    """After my discard at version `since`: the three bots have played (each at least a draw or
    a take and a discard, R25: so 1 + 3 × 2 versions) and it is my turn again."""
    page.wait_for_function(
        f"Number(document.querySelector('#table').dataset.v) >= {since + 7}"
        " && document.querySelector('#turn-banner').classList.contains('mine')",
        timeout=timeout,
    )


# Three deals' scores before the last one (R55): the team of South ahead.
EARLIER_DEAL = {
    "NS": {"melded": 300, "cards_left": -20, "red_threes": 100, "piles": 800, "going_out": 100, "total": 1280},
    "EW": {"melded": 200, "cards_left": -50, "red_threes": 0, "piles": 500, "going_out": 0, "total": 650},
}


def last_deal_position() -> dict:
    """Deal 4, South about to go out (finish_the_deal): the game ends (R7, R48, R49, R56)."""
    helpers = load_engine_helpers()
    return helpers.position(
        deal=4,
        hands={"S": "QC QD 9S"},
        feet={"S": None, "N": None},
        melds={"NS": helpers.GOING_OUT_PILES + ["QH QS QC QD"]},
        turn="S",
        phase="play",
        scores=[EARLIER_DEAL] * 3,
    )


def as_ranked_daily(ws) -> None:
    """A websocket route: the socket's states marked as a ranked daily's (a real one is dealt from
    the day's secret seed)."""
    server = ws.connect_to_server()

    def forward(message):
        data = json.loads(message)
        if data.get("type") == "state":
            data.update(mode="daily", ranked=True)
        ws.send(json.dumps(data))

    server.on_message(forward)
