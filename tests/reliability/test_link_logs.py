"""No log line of a real server holds a personal link's token (issue 18, finding 2).

Daphne's access log writes every request's path, and Django logs "Not Found: <path>": both
used to write /me/<token>/. Played on a real Daphne (through server.serve, as `make run` and
production run it): make a link, open it in another browser, confirm it, use it again, open an
unknown one; the server's whole output then names /me/[redacted]/ and no token.
"""

import urllib.error
import urllib.parse
import urllib.request

from server.log_redaction import REDACTED_LINK, redact
from testsupport.clients import Browser


def status_of(browser: Browser, path: str, fields: dict | None = None) -> int:
    data = urllib.parse.urlencode(fields).encode() if fields is not None else None
    try:
        with browser.opener.open(urllib.request.Request(browser.base + path, data=data), timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_the_servers_logs_never_hold_a_personal_links_token(daphne, sqlite_url):
    server = daphne(sqlite_url)
    owner = Browser(server.http)
    status, answer = owner.call("/api/link", {})
    assert status == 200
    path = answer["url"]
    token = path.split("/")[2]
    other = Browser(server.http)
    assert status_of(other, path) == 200  # the confirmation page
    assert status_of(other, path, {"csrfmiddlewaretoken": other.csrf}) == 200
    third = Browser(server.http)
    assert status_of(third, path, {"csrfmiddlewaretoken": third.csrf}) == 404  # used up
    assert status_of(other, path) == 404
    unknown = "Zz" + token[2:][::-1]
    assert status_of(other, f"/me/{unknown}/") == 404  # Django logs "Not Found: <path>" at WARNING
    server.stop()
    log = server.log_path.read_text(errors="replace")
    assert f'"GET {REDACTED_LINK}/' in log and f'"POST {REDACTED_LINK}/' in log  # the access log is on
    assert f"Not Found: {REDACTED_LINK}/" in log
    assert token not in log and unknown not in log


def test_redact_leaves_other_paths_alone():
    assert redact('"GET /me/abc-_XYZ123/ HTTP/1.1"') == '"GET /me/[redacted]/ HTTP/1.1"'
    assert redact("GET /leaderboard/me/") == "GET /leaderboard/me/"
    assert redact("/me/tok?x=1") == "/me/[redacted]?x=1"
