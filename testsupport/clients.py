"""The one HTTP client of the tests and the benchmarks: a browser-like session on a real server.

`Browser` keeps a cookie jar and the CSRF token, like one browser tab that opened the site (blocking:
call it from a thread in async code). `call` answers (status, JSON) whatever the status; `get` and
`post` expect a 2xx and raise AssertionError with the status and body otherwise.
"""

import http.cookiejar
import json
import urllib.error
import urllib.request


class Browser:
    """An HTTP client with a cookie jar and the CSRF token, like one browser."""

    def __init__(self, base: str, timeout: float = 30):
        self.base, self.timeout = base, timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = None
        self.session = self.get("/api/session")
        self.csrf = self.session["csrf"]

    def call(self, path: str, body: dict | None = None, method: str | None = None) -> tuple[int, dict]:
        """(status, JSON answer) of one request; a body makes it a POST unless `method` says otherwise."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method or ("POST" if data else "GET"))
        request.add_header("Content-Type", "application/json")
        request.add_header("Referer", self.base + "/")
        if self.csrf:
            request.add_header("X-CSRFToken", self.csrf)
        try:
            with self.opener.open(request, timeout=self.timeout) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            text = refused.read()
            try:
                return refused.code, json.loads(text or b"{}")
            except ValueError:  # an HTML error page
                return refused.code, {"body": text[:300].decode(errors="replace")}

    def expect_ok(self, path: str, body: dict | None = None, method: str | None = None) -> dict:
        status, answer = self.call(path, body, method)
        if not 200 <= status < 300:
            raise AssertionError(f"{path}: {status} {answer}")
        return answer

    def get(self, path: str) -> dict:
        return self.expect_ok(path)

    def post(self, path: str, body: dict) -> dict:
        return self.expect_ok(path, body, "POST")

    def new_solo(self, level: str = "easy") -> str:
        """A new solo game of this player; its id."""
        return self.post("/api/games", {"mode": "solo", "level": level})["id"]

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)
