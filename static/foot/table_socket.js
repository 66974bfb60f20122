/**
 * The table's side of the socket protocol (docs/PROTOCOL.md): the connection and its status line,
 * the refs that pair an answer with its question, an action waiting for its answer, and the
 * questions that are not moves (check, look back).
 */
import { gettext } from "./i18n.js";
import { ReconnectingSocket, socketUrl } from "./net.js";
import { $ } from "./dom.js";
import { gameId, makeOffer, model, onMessage, root, showMessage, ui } from "./table_state.js";
import { render } from "./table.js";

export let socket = null;
let refCounter = 0;

/** Opens the connection; the server sends the whole state on every (re)connection. */
export function connect() {
  socket = new ReconnectingSocket(socketUrl(root.dataset.ws || `/ws/game/${gameId}/`), {
    onMessage,
    onOpen: () => {},
    onStatus: setConnection,
    heartbeatMs: Number(root.dataset.heartbeatMs) || undefined,
  });
  return socket;
}

/** Sends a message; false when there is no connection to send it on. */
export function send(message) {
  return Boolean(socket && socket.send(message));
}

export function nextRef() {
  refCounter += 1;
  return `c${Date.now().toString(36)}${refCounter}`;
}

export function sync() {
  send({ type: "sync" });
}

export function sendAction(action) {
  const ref = nextRef();
  if (!send({ type: "action", action, v: ui.shownV, ref })) {
    showMessage(gettext("Not connected. Reconnecting…"));
    return;
  }
  ui.pending = { ref, action, timer: setTimeout(() => { ui.pending = null; sync(); render(); }, 10000) };
  ui.refocus = true; // the pressed button is disabled while the server answers: focus goes on afterwards
  makeOffer(null, []); // a hint or a take offered is played or passed by: no frame stays lit
  showMessage("");
  render();
}

/** The action the answer `ref` settles (and no longer waits for), or null. */
export function settlePending(ref) {
  if (ui.pending && ui.pending.ref === ref) {
    clearTimeout(ui.pending.timer);
    const { action } = ui.pending;
    ui.pending = null;
    return action;
  }
  return null;
}

export function stagedGroups() {
  return ui.staged.map((cards) => ({ cards }));
}

/** Asks the server what the groups set aside are worth (the answer is a "checked" message). */
export function checkStaging() {
  ui.stagingOk = false;
  if (!ui.staged.length) {
    ui.stagingStatus = "";
    return;
  }
  if (ui.shown.phase !== "play") {
    ui.stagingStatus = gettext("These groups count for your first meld when you take the pile.");
    return;
  }
  ui.stagingRef = nextRef();
  ui.stagingStatus = gettext("Counting…");
  send({ type: "check", action: { type: "meld", groups: stagedGroups() }, ref: ui.stagingRef });
}

/** A seated player's "Look back": the question sent, the answer (or refusal) handed to results.js. */
export function askLookBack() {
  if (!ui.me || !model.lookBack) return null;
  return (deal, answer) => {
    ui.lookBack = { ref: nextRef(), answer };
    if (!send({ type: "look_back", deal, ref: ui.lookBack.ref })) answer({ type: "error", message: gettext("Not connected. Reconnecting…") });
  };
}

export function answerLookBack(message) {
  if (!ui.lookBack || message.ref !== ui.lookBack.ref) return false;
  ui.lookBack.answer(message);
  ui.lookBack = null;
  return true;
}

function setConnection(status) {
  const text = { connecting: gettext("Connecting…"), open: "", refused: "", closed: gettext("Connection lost. Reconnecting…"),
    limited: gettext("Too many connections are open: close another table, or try again later.") }[status];
  $("connection").textContent = text;
  $("connection").hidden = !text;
  root.dataset.connection = status;
  if (status === "open") root.dataset.connections = String(Number(root.dataset.connections || 0) + 1);
  if (status === "refused" && !ui.shown) $("turn-banner").textContent = "";
}
