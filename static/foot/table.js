/**
 * The table page: draws this seat's view and the page's own state, and starts the table. The
 * parts: table_state.js (the state and what messages do to it), table_socket.js (the protocol),
 * table_pace.js (moves shown one after another, the deal end), table_input.js (input and focus).
 * It holds no game rule: what may be done comes from view.options, the server decides the rest.
 */
import { fmt, gettext } from "./i18n.js";
import { api } from "./net.js";
import { $ } from "./dom.js";
import { fitMelds, handCards, handKeys, renderCentre, renderControls, renderHand, renderMelds, renderSeats, renderStaging, renderStatus,
  renderTurnBanner } from "./render.js";
import { saveStaging } from "./staging.js";
import { teamName } from "./words.js";
import { renderOffer } from "./hint.js";
import { reactionBar, showBar } from "./reactions.js";
import { awayNotes, gameId, lobby, model, onMessage, openLobby, root, ui } from "./table_state.js";
import { connect, send } from "./table_socket.js";
import { gameLog, pacer } from "./table_pace.js";
import { focusFirstControl, handlers, wireControls } from "./table_input.js";

const drawnWith = {}; // part of the table -> the inputs it was last drawn from (render's `changed`)
const pageTitle = document.title;
let wasMyTurn = false;
const canNotify = () => model.mode === "friends" && Boolean(ui.me) && typeof Notification === "function";

/**
 * Coming back to the table: the tab's title says "Your turn" (seen from another tab), and in a
 * friends game, once the player asked for it with the button (never on load), a notification
 * says so while the page is in the background.
 */
function callToTurn(mine) {
  document.title = mine ? gettext("Your turn · Foot Canasta") : pageTitle;
  $("btn-notify").hidden = !canNotify() || Notification.permission !== "default";
  if (mine && !wasMyTurn && document.hidden && canNotify() && Notification.permission === "granted") {
    new Notification(gettext("Your turn · Foot Canasta"), { tag: `foot-${gameId}` });
  }
  wasMyTurn = mine;
}

/** The button's press asks the browser for permission to notify (the browsers want a press). */
export async function askToNotify() {
  try { await Notification.requestPermission(); } catch (error) { /* refused or unsupported: the title still says it */ }
  render();
}

export function selectedCodes() {
  return [...ui.selected].map((key) => key.split(":")[0]);
}

export function stagedCodes() {
  return ui.staged.flat();
}

/** Someone without a seat: "You are watching", and the meld areas named by their seats' teams. */
function showWatching() {
  const watching = !ui.me;
  $("watching").hidden = !watching;
  for (const [id, team] of [["team-us-title", "NS"], ["team-them-title", "EW"]]) {
    const title = $(id);
    if (!("seated" in title.dataset)) title.dataset.seated = title.textContent;
    title.textContent = watching ? fmt(gettext("%(team)s: melds"), { team: teamName(team) }) : title.dataset.seated;
  }
}

export function renderContext() {
  const view = ui.shown;
  const isMyTurn = Boolean(view && ui.me && view.turn === ui.me && view.phase !== "over");
  return {
    me: ui.me, players: model.players, presence: ui.presence, selected: ui.selected, selectedCodes: selectedCodes(),
    stagedCodes: stagedCodes(), staged: ui.staged, stagingOk: ui.stagingOk, stagingStatus: ui.stagingStatus,
    isMyTurn, busy: Boolean(ui.pending), ranked: model.ranked, hinted: ui.hinted, hintedButton: ui.hintedButton,
    showStaging: ui.staged.length > 0, ...handlers,
    order: ui.order, focusKey: ui.focusKey, dealOver: ui.dealOver, lastMelds: ui.lastMelds,
    footNext: Boolean(view && ui.me && view.seats && view.seats[ui.me] && !view.seats[ui.me].in_foot && view.seats[ui.me].foot > 0),
    awayLine: (seat) => (awayNotes ? awayNotes.seatLine(seat) : null), lastLine: (seat) => gameLog.lastBySeat[seat],
  };
}

export function render() {
  const view = ui.shown;
  if (!view) {
    // Before the game (a lobby) or before the first state: no hand and no game button on screen.
    for (const id of ["hand", "controls", "btn-sort"]) $(id).hidden = true;
    $("turn-banner").textContent = model.status === "lobby" ? "" : gettext("Connecting…");
    if (model.status !== "lobby") lobby?.hide();
    else if (!lobby) openLobby().then(render);
    else lobby.show({ me: ui.me, host: model.host, code: model.code, players: model.players, presence: ui.presence });
    return;
  }
  lobby?.hide();
  showWatching();
  const inHand = handKeys(handCards(view, stagedCodes()));
  for (const key of [...ui.selected]) if (!inHand.has(key)) ui.selected.delete(key);
  const context = renderContext();
  const refocus = ui.refocus && !ui.pending;
  context.focusHand = refocus && $("hand").querySelector(".card") !== null;
  // Each part is drawn again only when what it shows changed: a patch then costs what it changes.
  if (changed("hand", view.hand, context.stagedCodes, [...ui.selected], ui.order, [...ui.hinted], context.focusHand, ui.me)) {
    renderHand(view, context);
  }
  if (changed("seats", view.seats, view.turn, view.phase, ui.presence, model.players, ui.me, gameLog.lastBySeat)) renderSeats(view, context);
  const pile = view.discard || [];
  if (changed("centre", view.stock, pile.length, pile.slice(-5), view.discard_blocked)) renderCentre(view);
  if (changed("melds", view.melds, view.red_threes, view.down, view.options && view.options.add_to, context.selectedCodes,
    context.isMyTurn, [...ui.lastMelds], ui.me)) renderMelds(view, context);
  if (changed("status", view.deal, view.first_meld_minimum, view.down, view.piles, view.going_out_needs, view.scores, ui.me)) {
    renderStatus(view, context);
  }
  renderTurnBanner(view, context);
  renderStaging(context);
  renderControls(view, context);
  renderOffer(ui.offer, context);
  $("hand").hidden = !ui.me;
  $("controls").hidden = !ui.me;
  showBar(ui.reactions, ui.me, model.players);
  saveStaging(gameId, ui.me, view, ui.staged, ui.selected);
  $("btn-sort").hidden = !ui.me;
  $("btn-show-score").hidden = !ui.dealOver || $("deal-end").open;
  fitMelds(); // last: from the room the other parts leave
  callToTurn(context.isMyTurn);
  if (refocus) {
    ui.refocus = false;
    if (!$("hand").contains(document.activeElement)) focusFirstControl();
  }
}

/** Whether a part's inputs differ from the last time it was drawn (and remembers them). */
function changed(part, ...inputs) {
  const key = JSON.stringify(inputs);
  if (drawnWith[part] === key) return false;
  drawnWith[part] = key;
  return true;
}

async function start() {
  wireControls();
  ui.reactions = reactionBar($("controls"), (reaction) => send({ type: "react", reaction }));
  render();
  try { await api("/api/session"); } catch (error) { /* the socket will say if the session is missing */ }
  const socket = connect();
  // Test hook (the page has data-test-hooks only when FOOT_TEST_HOOKS is on): the state, and
  // `receive` to feed a message as if the server sent it.
  if ("testHooks" in root.dataset) window.footTable = { model, ui, socket, pacer, receive: onMessage };
}

start();
