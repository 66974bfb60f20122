"""A deadline on each HTTP request's arrival: a connection whose request (line, headers and body)
has not all arrived within FOOT_HTTP_REQUEST_SECONDS is closed.

Daphne gives no such setting: its `--http-timeout` counts from a whole request to the answer, and
Twisted's idle timeout (60 s) starts again with every byte, so a client sending one byte every few
seconds ("slowloris") held a connection, and its buffers, for as long as it liked. The deadline
starts when the connection opens and again when an answer is done on a kept-alive connection (so
an idle kept-alive connection is closed after it too); it stops once the whole request is in, so
a long answer or a websocket (the upgraded request) is never cut. Production sits behind a proxy
with its own header timeout and per-address connection limit (docs/DEPLOY.md): this is the
server's own floor, for the direct connections of `make run` and a proxy that lets one through.
"""

from typing import Any

from django.conf import settings
from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure
from twisted.web import http


class DeadlineChannel(http.HTTPChannel):
    """Twisted's HTTP channel, closed when a request takes longer than `seconds` to arrive."""

    seconds = 10.0
    _deadline: Any = None

    def connectionMade(self) -> None:
        super().connectionMade()
        self._start_deadline()

    def allContentReceived(self) -> None:
        self._stop_deadline()
        super().allContentReceived()

    def requestDone(self, request: Any) -> None:
        super().requestDone(request)
        if self.persistent and self.transport is not None and not self._handlingRequest:
            self._start_deadline()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._stop_deadline()
        super().connectionLost(reason)

    def _start_deadline(self) -> None:
        self._stop_deadline()
        if self.seconds > 0:
            self._deadline = self.callLater(self.seconds, self._too_slow)

    def _stop_deadline(self) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.timeoutConnection()  # Twisted's own: close, and abort if the client does not let go


def deadline_channel(factory: http.HTTPFactory) -> Any:
    """The protocol Daphne's HTTP factory builds: Twisted's, around a DeadlineChannel."""
    return http._GenericHTTPChannelProtocol(DeadlineChannel())


def install() -> None:
    """Every HTTP connection Daphne accepts from now on has the deadline of the settings (0: none)."""
    import daphne.http_protocol  # type: ignore[import-untyped]  # Daphne ships no type hints

    DeadlineChannel.seconds = settings.FOOT_HTTP_REQUEST_SECONDS
    daphne.http_protocol.HTTPFactory.protocol = deadline_channel
