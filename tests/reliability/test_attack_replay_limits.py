"""A ranked daily's replay cannot be pulled without limit (issue 24, finding 5).

`GET /api/replay/<id>` (up to 200 steps of views a call, megabytes for a whole game) and the replay
step page (`/leaderboard/replay/<id>/?step=N`, a replay from the start for every step) had no rate
limit: four clients drew about 100 MB in 10 s. Each now counts against the session and the network
(FOOT_LIMIT_REPLAY_STEPS_*, FOOT_LIMIT_REPLAY_PAGE_*), before the game is looked up, so guessing ids
counts too. On a real Daphne with small limits: a browser is answered 429 with Retry-After past
its limit, in its language; a cookie-less caller is counted by its network.
"""

import urllib.error
import urllib.request
import uuid

from testsupport.clients import Browser


def status_of(url: str, headers: dict | None = None) -> tuple[int, str | None]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as answer:
            return answer.status, None
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers.get("Retry-After")


def test_replay_api_and_step_page_are_rate_limited(daphne, sqlite_url):
    server = daphne(
        sqlite_url,
        FOOT_LIMIT_REPLAY_STEPS_SESSION="5/60",
        FOOT_LIMIT_REPLAY_STEPS_NETWORK="12/60",
        FOOT_LIMIT_REPLAY_PAGE_SESSION="8/60",
        FOOT_LIMIT_REPLAY_PAGE_NETWORK="20/60",
    )
    browser = Browser(server.http)
    game = uuid.uuid4()
    answers = [browser.call(f"/api/replay/{game}")[0] for _ in range(7)]
    assert answers == [404] * 5 + [429] * 2, answers
    status, body = browser.call(f"/api/replay/{game}")
    assert status == 429 and body["code"] == "rate_limited" and body["retry_after"] >= 1
    cookie = {"Cookie": browser.cookie_header(), "Accept-Language": "de"}
    pages = [status_of(f"{server.http}/leaderboard/replay/{game}/?step={n}", cookie) for n in range(10)]
    assert [status for status, _ in pages] == [404] * 8 + [429] * 2, pages
    assert pages[-1][1] is not None and int(pages[-1][1]) >= 1
    # Cookie-less callers share their network's count: 12 replay calls a minute in all.
    bare = [status_of(f"{server.http}/api/replay/{game}")[0] for _ in range(8)]
    assert bare.count(404) == 12 - 8 and bare.count(429) == 4, bare
