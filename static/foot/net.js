/**
 * Talking to the server: JSON over HTTP (with Django's CSRF token) and the game's websocket,
 * which reconnects by itself with a growing delay after it drops.
 */

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
  let data = {};
  try { data = await response.json(); } catch (error) { data = {}; }
  if (!response.ok) throw new ApiError(data.message || response.statusText, data.code || "http_error", response.status);
  return data;
}

export function socketUrl(path) {
  if (/^wss?:/.test(path)) return path;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/**
 * A websocket that comes back by itself: on a drop it waits 0.5 s, 1 s, 2 s ... (at most 10 s)
 * and connects again; `onOpen` runs on every (re)connection so the caller can resync.
 */
export class ReconnectingSocket {
  constructor(url, { onMessage, onOpen, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closedByUs = false;
    this.connect();
  }

  connect() {
    this.onStatus("connecting");
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.onStatus("open");
      this.onOpen();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.closedByUs) return;
      this.onStatus("closed");
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
