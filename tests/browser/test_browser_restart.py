"""The page through a rolling restart (issue 26, item 4): Chromium plays a new game through
nginx in front of two Daphnes on PostgreSQL and Redis (testsupport/cluster.py, as `make cluster`),
both Daphnes are restarted one after the other (SIGTERM: its sockets closed with 1012), and the
page connects again to whichever process nginx picks, at the same version, without ever
showing a connection message or an error; then it plays on.
"""

import pytest

from testsupport.cluster import Cluster, nginx_binary
from testsupport.services import service_missing

from .test_browser_play import start_new_game

pytestmark = pytest.mark.browser

# Every text the connection line shows is kept.
WATCH_CONNECTION_LINE = """
window.footShown = [];
document.addEventListener("DOMContentLoaded", () => {
  const line = document.getElementById("connection");
  if (!line) return;
  new MutationObserver(() => { if (!line.hidden && line.textContent) window.footShown.push(line.textContent); })
    .observe(line, { attributes: true, childList: true, characterData: true, subtree: true });
});
"""


def test_the_page_resumes_through_a_rolling_restart_without_a_word(page, postgres_url, redis_url, tmp_path):
    if nginx_binary() is None:
        service_missing("nginx is not installed (make system-packages)")
    cluster = Cluster(2, postgres_url, redis_url, tmp_path, FOOT_BOT_DELAY=0, FOOT_DRAIN_SECONDS=5)
    cluster.prepare()
    cluster.start()
    try:
        page.context.add_init_script(WATCH_CONNECTION_LINE)
        start_new_game(page, cluster)
        table = page.locator("#table")
        before = int(table.get_attribute("data-v"))
        assert table.get_attribute("data-connections") == "1"
        page.evaluate("window.footShown = []")  # the first "Connecting…" was the page's start
        for index in range(2):
            cluster.restart(index)
        # The socket was on one of them: the page has connected again, at the same version.
        page.wait_for_function("Number(document.querySelector('#table').dataset.connections) >= 2", timeout=20000)
        page.wait_for_function("document.querySelector('#table').dataset.connection === 'open'")
        assert int(table.get_attribute("data-v")) == before
        page.get_by_role("button", name="Draw 2").click()  # and it plays on
        page.wait_for_function(f"Number(document.querySelector('#table').dataset.v) > {before}")
        assert page.evaluate("window.footShown") == []
        assert page.foot_errors == []
    finally:
        cluster.stop()
