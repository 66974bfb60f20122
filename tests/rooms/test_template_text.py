"""No template syntax leaks onto a page as text. Django's `{# #}` comment ends at the end of its
line, so a comment that runs over two lines is printed to the player (it once showed under the
hand on a phone); multi-line comments use `{% comment %}`."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.rooms.creation import create_game
from players.models import Player

pytestmark = pytest.mark.django_db

TEMPLATE_SYNTAX = ("{#", "#}", "{%", "%}", "{{", "}}")


def template_files() -> list[Path]:
    root = Path(settings.BASE_DIR)
    return sorted(p for p in root.glob("**/templates/**/*.html") if ".venv" not in p.parts)


def test_every_short_comment_closes_on_its_own_line():
    files = template_files()
    assert len(files) > 10  # the scan sees the site's templates, not an empty folder
    unclosed = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.count("{#") != line.count("#}")
    ]
    assert unclosed == []


def page_for(player: Player, url: str) -> str:
    client = Client()
    session = client.session
    session["player_id"] = str(player.id)
    session.save()
    answer = client.get(url)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize("url", ["/", "/rules/", "/g/{game}/", "/leaderboard/", "/leaderboard/check/", "/record/"])
def test_a_page_shows_no_template_syntax(url):
    player = Player.objects.create()
    game, _ = create_game(player, "solo", "easy")
    html = page_for(player, url.format(game=game.id))
    assert [mark for mark in TEMPLATE_SYNTAX if mark in html] == []
