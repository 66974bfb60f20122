/**
 * Talking to the server: JSON over HTTP (with Django's CSRF token) and the game's websocket,
 * which reconnects by itself with a growing delay after it drops.
 */

import { CLOSE_IDLE, CLOSE_REFUSED, CLOSE_TOO_MANY } from "./protocol.js";

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export class ApiError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** GET (no body) or POST (with a body) a JSON route; throws ApiError with the server's message. */
export async function api(path, body) {
  const options = { credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (error) { data = {}; }
  if (!response.ok) throw new ApiError(data.message || response.statusText, data.code || "http_error", response.status);
  return data;
}

export function socketUrl(path) {
  if (/^wss?:/.test(path)) return path;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

// The close codes (static/foot/protocol.js). The server closes a socket that said nothing for
// FOOT_WS_IDLE_SECONDS (5 minutes by default) with CLOSE_IDLE; a page that is looked at says
// "heartbeat" well before that. CLOSE_TOO_MANY: it tries again with the growing delay.
// CLOSE_REFUSED: refused for good; the error before it says why.
export { CLOSE_IDLE, CLOSE_REFUSED, CLOSE_TOO_MANY };
// The server is restarting (RFC 6455's "service restart"): any other process takes the socket at
// once, so the page connects again after a short random pause and says nothing unless that fails.
export const CLOSE_RESTART = 1012;
const HEARTBEAT_MS = 30000; // unless the page says otherwise (data-heartbeat-ms, a third of the idle time)

/**
 * A websocket that comes back by itself: on a drop it waits 0.5 s, 1 s, 2 s ... (at most 10 s)
 * and connects again (after a server's restart, 1012, at once and without a word); `onOpen`
 * runs on every (re)connection so the caller can resync. While the page is visible it sends a
 * heartbeat every `heartbeatMs` (30 s); a hidden page sends none, so the server closes its
 * socket once it has been idle long enough, and the page connects again when it is shown.
 */
export class ReconnectingSocket {
  constructor(url, { onMessage, onOpen, onStatus, heartbeatMs }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closedByUs = false;
    this.waitingToBeSeen = false;
    setInterval(() => this.heartbeat(), heartbeatMs || HEARTBEAT_MS);
    document.addEventListener("visibilitychange", () => this.shown());
    this.connect();
  }

  heartbeat() {
    if (document.visibilityState === "visible") this.send({ type: "heartbeat" });
  }

  /** A page whose socket was closed as idle while hidden connects again once it is looked at. */
  shown() {
    if (document.visibilityState !== "visible" || !this.waitingToBeSeen) return;
    this.waitingToBeSeen = false;
    this.connect();
  }

  connect() {
    if (!this.quiet) this.onStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.quiet = false;
      this.onStatus("open");
      this.onOpen();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.closedByUs) return;
      if (event.code === CLOSE_RESTART && !this.quiet) {
        this.quiet = true; // one quiet try; a second close is shown as usual
        setTimeout(() => this.connect(), 100 + Math.random() * 400);
        return;
      }
      this.quiet = false;
      if (event.code === CLOSE_REFUSED) {
        this.onStatus("refused");
        return;
      }
      this.onStatus(event.code === CLOSE_TOO_MANY ? "limited" : "closed");
      if (event.code === CLOSE_IDLE && document.visibilityState !== "visible") {
        this.waitingToBeSeen = true;
        return;
      }
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    });
  }

  /** Sends at once or not at all (false): a move must never be replayed on a later version. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Drops the connection as a network failure would (used by tests and on page errors). */
  drop() {
    if (this.socket) this.socket.close();
  }

  close() {
    this.closedByUs = true;
    if (this.socket) this.socket.close();
  }
}
