/**
 * The table page: keeps this seat's view in step with the server over the websocket (state,
 * patches by version, sync on any gap, reconnect after a drop), shows other seats' moves one
 * after another, and turns clicks into actions. It holds no game rule: what may be done comes
 * from view.options, and the server's check/errors decide everything else.
 */
import { Pacer, showEvent } from "./anim.js";
import { fmt, gettext } from "./i18n.js";
import { ReconnectingSocket, api, socketUrl } from "./net.js";
import { applyPatch } from "./patch.js";
import { handCards, handKeys, positions, refitHand, renderCentre, renderControls, renderHand, renderMelds, renderSeats,
  renderStaging, renderStatus, renderTurnBanner, $ } from "./render.js";
import { GameLog } from "./log.js";
import { lapsedLine, modeLine } from "./deadline.js";
import { initSettings } from "./settings.js";
import { loadStaging, saveStaging } from "./staging.js";
import { CLOCKWISE, directionName, otherTeam, seatName, teamName, teamOf } from "./words.js";
import { joinList } from "./numbers.js";
import { hintWords, offerButton, offerCards, renderOffer, takeWords } from "./hint.js";
import { showDealEnd, showGameOver } from "./results.js";
import { AwayNotes } from "./away.js";
import { Lobby } from "./lobby.js";
import { showRecap } from "./recap.js";
import { reactionBar, showBar, showReaction } from "./reactions.js";
import { offerLobby, wirePlayAgain } from "./again.js";
import { LessonPrompt } from "./lesson.js";

const root = $("table");
const gameId = root.dataset.game;
// Before `ui`, which reads it: a const read earlier throws (and storedOrder's catch then forgot the setting).
const ORDER_KEY = "foot.sort";

// The latest from the server (what patches apply to) ...
const model = { v: null, view: null, seat: null, mode: null, ranked: false, rankedUntil: null, lapsed: null, players: {}, awaiting: [], status: null };
// ... and what the page shows (`shown` may lag behind `model.view` while other seats' moves play out).
const ui = {
  shown: null, shownV: null, selected: new Set(), staged: [], stagingOk: false, stagingStatus: "",
  stagingRef: null, pending: null, presence: {}, hinted: new Set(), hintedButton: null, offer: null, playing: null,
  order: storedOrder(), focusKey: null, refocus: false, dealOver: null, lastMelds: new Set(), lookBack: null,
};
const pacer = new Pacer();
const gameLog = new GameLog($("log"));
const lobby = new Lobby($("lobby"), {
  sit: (seat) => { if (!socket || !socket.send({ type: "seat", seat })) throw new Error(gettext("Not connected. Reconnecting…")); },
  join: (seat) => api(`/api/games/${gameId}/join`, { seat }),
  start: () => api(`/api/games/${gameId}/start`, {}),
});
const awayNotes = new AwayNotes($("away-notes"), (seat) => personName(seat));
const queue = [];
let draining = false;
let refCounter = 0;
let socket = null;
const drawnWith = {}; // part of the table -> the inputs it was last drawn from (render's `changed`)

/** The hand's order, a setting kept per browser: "rank" (the default) or "suit". */
function storedOrder() {
  try { return localStorage.getItem(ORDER_KEY) === "suit" ? "suit" : "rank"; } catch (error) { return "rank"; }
}

// --- talking to the server -------------------------------------------------------------------

function nextRef() {
  refCounter += 1;
  return `c${Date.now().toString(36)}${refCounter}`;
}

function sync() {
  if (socket) socket.send({ type: "sync" });
}

function sendAction(action) {
  const ref = nextRef();
  if (!socket || !socket.send({ type: "action", action, v: ui.shownV, ref })) {
    showMessage(gettext("Not connected. Reconnecting…"));
    return;
  }
  ui.pending = { ref, action, timer: setTimeout(() => { ui.pending = null; sync(); render(); }, 10000) };
  ui.refocus = true; // the pressed button is disabled while the server answers: focus goes on afterwards
  showMessage("");
  render();
}

function settlePending(ref) {
  if (ui.pending && ui.pending.ref === ref) {
    clearTimeout(ui.pending.timer);
    const { action } = ui.pending;
    ui.pending = null;
    return action;
  }
  return null;
}

function onMessage(message) {
  switch (message.type) {
    case "state": return onState(message);
    case "patch": return onPatch(message);
    case "error": return onError(message);
    case "checked": return onChecked(message);
    case "presence": return onPresence(message);
    case "hint": return onHint(message);
    case "take_choice": return onTakeChoice(message);
    case "look_back": return answerLookBack(message);
    case "notice": return showMessage(message.message || message.code);
    case "play_again": return offerLobby(message, ui.me, seatNameOf, revealGameOver);
    case "reaction": return showReaction(seatElement(message.seat), message.seat, seatNameOf(message.seat), message.reaction);
    default: return null;
  }
}

function onState(message) {
  model.v = message.v;
  model.view = message.view;
  model.seat = message.seat || (message.view && message.view.seat) || null;
  model.mode = message.mode || model.mode;
  model.ranked = Boolean(message.ranked);
  model.lookBack = Boolean(message.look_back);
  model.rankedUntil = message.ranked_until || null;
  if (message.lapsed && model.lapsed === false) showMessage(lapsedLine()); // it lapsed while this page was open
  model.lapsed = Boolean(message.lapsed);
  if (message.seats) model.players = playersOf(message.seats, message.names);
  model.host = message.host || null;
  model.code = message.code || null;
  model.status = message.status || model.status;
  model.awaiting = message.awaiting || [];
  if (message.date) model.date = message.date;
  ui.me = model.seat;
  showMode();
  askLesson();
  if (ui.pending) settlePending(ui.pending.ref);
  enqueue({ kind: "state", v: message.v, view: message.view, recent: message.recent, recap: message.recap });
  if (message.play_again) offerLobby(message.play_again, ui.me, seatNameOf, () => {}); // its dialog opens with the result
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

/** {seat: {kind, name}} from a message's seat labels and the names the server sent (words.seatName). */
function playersOf(labels, names) {
  const players = {};
  for (const [seat, kind] of Object.entries(labels || {})) players[seat] = { kind, name: (names && names[seat]) || null };
  return players;
}

function onPresence(message) {
  ui.presence = message.seats || {};
  if (message.names) {
    for (const [seat, player] of Object.entries(model.players)) player.name = message.names[seat] || null;
    model.players = { ...model.players };
  }
  awayNotes.update(message, ui.me);
  if (ui.shown) renderSeats(ui.shown, renderContext());
  else render(); // the lobby shows who is here
  return null;
}

/** A friend by their nickname ("Friend (North)" without one), as the away notes say it. */
function personName(seat) {
  const player = model.players[seat];
  return (player && player.name) || fmt(gettext("%(name)s (%(direction)s)"), { name: gettext("Friend"), direction: directionName(seat) });
}

/** Says whether this daily counts for the leaderboard, and until when (deadline.js). */
function showMode() {
  const info = document.getElementById("mode-info");
  if (info) info.textContent = modeLine(model);
}

/** Learn to play: the server's current step of the lesson, shown above the controls (lesson.js). */
let lessonPrompt = null;
function askLesson() {
  if (model.mode !== "lesson" || !ui.me) return;
  if (!lessonPrompt) lessonPrompt = new LessonPrompt(gameId, document.querySelector(".player"));
  lessonPrompt.refresh();
}

function onPatch(message) {
  if (model.view === null) return sync();
  if (message.v <= model.v) return null; // already have it (e.g. a patch that crossed a state)
  if (message.v !== model.v + 1) return sync(); // a lost message: ask for the whole view
  let next;
  try {
    next = applyPatch(model.view, message.ops || []);
  } catch (error) {
    return sync();
  }
  model.v = message.v;
  model.view = next;
  askLesson();
  const mine = Boolean(message.ref) && settlePending(message.ref) !== null;
  enqueue({ kind: "patch", v: message.v, view: next, events: message.events || [], mine });
  return null;
}

function onError(message) {
  if (answerLookBack(message)) return;
  const action = settlePending(message.ref);
  // On stale_version the server sends the whole state by itself: nothing to ask for here.
  if (message.ref && message.ref === ui.stagingRef) ui.stagingStatus = message.message || message.code;
  else if (action || !message.ref) showMessage(message.message || message.code);
  if (model.status === "lobby" && !action) lobby.error(message.message || message.code);
  if (action) ui.playing = null; // an offer being played stops at a refusal, which says why
  render();
}

function onChecked(message) {
  if (message.ref !== ui.stagingRef) return;
  ui.stagingOk = Boolean(message.ok);
  const minimum = (ui.shown && ui.shown.options && ui.shown.options.minimum) || 0;
  ui.stagingStatus = message.ok
    ? fmt(gettext("Set aside: %(points)s points (first meld needs %(minimum)s). Ready to lay down."), { points: message.points, minimum })
    : message.message || message.code;
  render();
}

/** The server's hint: its whole step in words, its cards lit, and "Play the hint" (hint.js). */
function onHint(message) {
  makeOffer("hint", message.step.actions);
  showMessage(hintWords(message.step));
  render();
}

/** Take pile pressed with nothing selected: the take the server found (to confirm), or why there is none. */
function onTakeChoice(message) {
  if (!message.ok) {
    makeOffer(null, []);
    showMessage(message.message || message.code);
  } else {
    makeOffer("take", [message.action]);
    showMessage(takeWords(message.action, message.points, !(ui.shown.options && ui.shown.options.minimum)));
  }
  render();
}

function makeOffer(kind, actions) {
  ui.offer = kind && actions.length ? { kind, actions, v: ui.shownV } : null;
  ui.hinted = new Set(offerCards(actions));
  ui.hintedButton = offerButton(actions);
}

/** "Play the hint" / "Yes, take the pile": the offer's actions go out one by one, as a person's would. */
function playOffer() {
  if (!ui.offer) return;
  ui.playing = ui.offer.actions.slice();
  ui.offer = null;
  ui.staged = [];
  ui.selected.clear();
  playNext();
}

function playNext() {
  if (!ui.playing || ui.pending) return;
  const action = ui.playing.shift();
  if (!ui.playing.length) ui.playing = null;
  if (!action) return;
  // The groups of a first lay-down or of a take show as set aside while the server answers (R42).
  const groups = (action.groups || []).filter((group) => !group.to).map((group) => group.cards);
  if (action.type === "take_pile" || groups.length > 1) ui.staged = groups;
  sendAction(action);
}

function cancelOffer() {
  makeOffer(null, []);
  showMessage("");
  render();
}

// --- showing moves one after another ---------------------------------------------------------

function enqueue(item) {
  queue.push(item);
  if (!draining) drain();
}

async function drain() {
  draining = true;
  while (queue.length) {
    const item = queue.shift();
    try {
      await present(item);
    } catch (error) {
      console.error(error); // a drawing problem must not stop the table from following the game
    }
  }
  draining = false;
}

function seatElement(seat) {
  if (seat === ui.me) return $("hand");
  const place = positions(ui.me);
  const position = Object.keys(place).find((key) => place[key] === seat);
  return $(`seat-${position}`);
}

function meldsElement(seat) {
  return teamOf(seat) === teamOf(ui.me || "S") ? $("melds-us") : $("melds-them");
}

/** Where the animations start and end (anim.js): a meld by its key, else its team's melds. */
const places = {
  stock: () => $("stock"),
  discard: () => $("discard"),
  seat: seatElement,
  melds: meldsElement,
  meld: (seat, key) => meldsElement(seat).querySelector(`[data-meld="${key}"]`) || meldsElement(seat),
};

async function present(item) {
  if (item.kind === "state") {
    setShown(item.view, item.v);
    if (!ui.shown) return;
    gameLog.restore(item.recent, ui.me, model.players);
    if (item.recap) showRecap(root, item.recap, ui.me, model.players);
    restoreStaging();
    await offerUnseenResults(item);
    return;
  }
  gameLog.addMove(item.v, item.events, ui.me, model.players, ui.shown);
  for (const event of item.events) await showEvent(pacer, event, places, { me: ui.me, mine: item.mine });
  const dealEnd = item.events.find((event) => event.type === "deal_end");
  const gameOver = item.events.find((event) => event.type === "game_over");
  if (dealEnd && !gameOver) {
    await holdDealEnd(item, dealEnd);
    return;
  }
  setShown(item.view, item.v);
  if (gameOver) openGameOver();
  if (!item.mine && item.events.some((event) => event.type !== "turn")) await pacer.wait(250);
}

function setShown(view, v) {
  const turnChanged = !ui.shown || !view || ui.shown.turn !== view.turn || ui.shown.deal !== view.deal;
  ui.shown = view;
  ui.shownV = v;
  if (turnChanged || !fitsHand(stagedCodes(), view && view.hand)) {
    ui.staged = []; // set-aside groups are interface state only: they go back at the end of a turn (R42)
    ui.stagingOk = false;
    ui.stagingStatus = "";
    ui.hinted = new Set();
    ui.hintedButton = null;
  }
  if (turnChanged) ui.playing = null; // an offer is played within one turn
  if (ui.offer && ui.offer.v !== v) makeOffer(null, []); // an offer holds for the table it was made for
  root.setAttribute("aria-busy", "false");
  root.dataset.v = String(v);
  render();
  if (ui.playing && !queue.length) playNext();
}

// --- the end of a deal: its last table stays until the player has seen it ---------------------

/**
 * The finished deal's table (the deal_end event's `table`: melds and every seat's cards counted)
 * is shown with the score; the next deal's view waits until "Next deal". Without a `table` (an
 * older server) the table as it was before the last move stays instead.
 */
async function holdDealEnd(item, dealEnd, before = ui.shown || item.view) {
  const table = dealEnd.table || {};
  const myCount = table.seats && ui.me && table.seats[ui.me] ? table.seats[ui.me].cards : null;
  const heldCount = Object.values(before.hand || {}).reduce((sum, n) => sum + n, 0);
  // Your own cards as the deal ended: the hand before the last move, unless that move changed it.
  const finished = {
    ...before, ...table, turn: null, options: {}, scores: item.view.scores,
    hand: myCount === null || myCount === heldCount ? before.hand : {},
  };
  ui.lastMelds = lastMoveMelds(item.events);
  ui.dealOver = { deal: dealEnd.deal, score: dealEnd.score, reason: dealEnd.reason, out: item.events.find((e) => e.type === "go_out") };
  ui.selected.clear();
  setShown(finished, ui.shownV === null ? item.v : ui.shownV);
  showDealOverNote();
  openDealEnd(dealEnd.deal, dealEnd.score);
  await new Promise((resolve) => { ui.dealOver.resume = resolve; });
  ui.dealOver = null;
  ui.lastMelds = new Set();
  $("deal-over").hidden = true;
  setShown(item.view, item.v);
  dealAnimation();
  focusAfterDeal();
}

/** "team:key" of every meld the finished deal's last move laid or added to (the going-out meld). */
function lastMoveMelds(events) {
  const marked = new Set();
  for (const event of events) {
    if (event.type !== "meld") continue;
    for (const group of event.groups || []) if (group.meld !== undefined) marked.add(`${event.team || teamOf(event.seat)}:${group.meld}`);
  }
  return marked;
}

function showDealOverNote() {
  const { deal, reason, out } = ui.dealOver;
  let how = "";
  if (reason === "stock") how = gettext("the stock ran out");
  else if (out) how = fmt(gettext("%(name)s went out"), { name: seatNameOf(out.seat) });
  const title = fmt(gettext("Deal %(deal)s is over"), { deal });
  $("deal-over-text").textContent = how ? `${title}: ${how}.` : `${title}.`;
  $("deal-over").hidden = false;
}

function seatNameOf(seat) {
  return seat ? seatName(seat, ui.me, model.players) : "";
}

/** The new hands come from the stock one after another; nothing moves at the Fast pace or with reduced motion. */
function dealAnimation() {
  if (pacer.factor === 0 || pacer.reducedMotion || typeof Element.prototype.animate !== "function") return;
  const from = $("stock").getBoundingClientRect();
  $("hand").querySelectorAll(".card").forEach((card, index) => {
    const to = card.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration: 260 * pacer.factor, delay: index * 35 * pacer.factor, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
  });
}

function nextDeal() {
  $("deal-end").close();
  if (socket) socket.send({ type: "next_deal" });
  if (ui.dealOver && ui.dealOver.resume) return ui.dealOver.resume();
  ui.dealOver = null;
  $("deal-over").hidden = true;
  render();
  return focusAfterDeal();
}

function fitsHand(codes, hand) {
  const left = { ...(hand || {}) };
  return codes.every((code) => (left[code] = (left[code] || 0) - 1) >= 0);
}

/** After a reload: the groups set aside and the cards selected in this turn come back (staging.js). */
function restoreStaging() {
  const kept = loadStaging(gameId, ui.me, ui.shown);
  if (!kept || (!kept.staged.length && !kept.selected.length)) return;
  ui.staged = kept.staged;
  ui.selected = new Set(kept.selected);
  checkStaging();
  render();
}

// --- messages --------------------------------------------------------------------------------

function showMessage(text) {
  $("message").textContent = text;
}

// --- rendering -------------------------------------------------------------------------------

function selectedCodes() {
  return [...ui.selected].map((key) => key.split(":")[0]);
}

function stagedCodes() {
  return ui.staged.flat();
}

function renderContext() {
  const view = ui.shown;
  const isMyTurn = Boolean(view && ui.me && view.turn === ui.me && view.phase !== "over");
  return {
    me: ui.me, players: model.players, presence: ui.presence, selected: ui.selected, selectedCodes: selectedCodes(),
    stagedCodes: stagedCodes(), staged: ui.staged, stagingOk: ui.stagingOk, stagingStatus: ui.stagingStatus,
    isMyTurn, busy: Boolean(ui.pending), ranked: model.ranked, hinted: ui.hinted, hintedButton: ui.hintedButton,
    showStaging: ui.staged.length > 0, onCardClick, onMeldClick, onTakeBack,
    order: ui.order, focusKey: ui.focusKey, dealOver: ui.dealOver, lastMelds: ui.lastMelds,
    awayLine: (seat) => awayNotes.seatLine(seat),
  };
}

function render() {
  const view = ui.shown;
  if (!view) {
    // Before the game (a lobby) or before the first state: no hand and no game button on screen.
    for (const id of ["hand", "controls", "btn-sort"]) $(id).hidden = true;
    $("turn-banner").textContent = model.status === "lobby" ? "" : gettext("Connecting…");
    if (model.status === "lobby") lobby.show({ me: ui.me, host: model.host, code: model.code, players: model.players, presence: ui.presence });
    else lobby.hide();
    return;
  }
  lobby.hide();
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
  if (changed("seats", view.seats, view.turn, view.phase, ui.presence, model.players, ui.me)) renderSeats(view, context);
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

/** When the hand is empty after an action (a foot to come, the deal over): the first control that works. */
function focusFirstControl() {
  const button = [...$("controls").querySelectorAll("button")].find((candidate) => !candidate.hidden && !candidate.disabled);
  if (button) button.focus();
}

function focusAfterDeal() {
  const draw = $("btn-draw");
  if (!draw.disabled && !draw.hidden) draw.focus();
  else focusHandCard();
}

function focusHandCard() {
  const hand = $("hand");
  const card = hand.querySelector(`[data-key="${ui.focusKey}"]`) || hand.querySelector(".card");
  if (card) card.focus({ preventScroll: true });
}

// --- what the player does --------------------------------------------------------------------

/**
 * The cards of one stack are alike (copies of a card; on a narrow phone the cards of a rank,
 * render.renderHand): a tap on any of them selects the first not yet selected, or (on a selected
 * one) lets go of the last selected one, so a squeezed stack works as one wide target.
 */
function onCardClick(key) {
  const card = $("hand").querySelector(`[data-key="${key}"]`);
  if (!card) return;
  const copies = [...card.closest(".copies").querySelectorAll(".card")].map((other) => other.dataset.key);
  const chosen = ui.selected.has(key)
    ? copies.filter((other) => ui.selected.has(other)).pop()
    : copies.find((other) => !ui.selected.has(other));
  if (ui.selected.has(chosen)) ui.selected.delete(chosen);
  else ui.selected.add(chosen);
  ui.focusKey = key;
  render();
}

/** Arrow keys move between the hand's cards (one of them is in the tab order), Home and End to its ends. */
function onHandKey(event) {
  const cards = [...$("hand").querySelectorAll(".card")];
  const index = cards.indexOf(event.target);
  if (index < 0) return;
  const target = {
    ArrowLeft: cards[index - 1], ArrowRight: cards[index + 1], Home: cards[0], End: cards[cards.length - 1],
    ArrowUp: cardAcross(cards, event.target, -1), ArrowDown: cardAcross(cards, event.target, 1),
  }[event.key];
  if (event.key in { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, ArrowDown: 1, Home: 1, End: 1 }) event.preventDefault();
  if (!target) return;
  event.target.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
}

/** The card in the row above (-1) or below (1) nearest to this one, else the previous or next card. */
function cardAcross(cards, card, direction) {
  const top = card.offsetTop;
  const left = card.getBoundingClientRect().left;
  const others = cards.filter((other) => (direction < 0 ? other.offsetTop < top - 4 : other.offsetTop > top + 4));
  if (!others.length) return cards[cards.indexOf(card) + direction];
  return others.reduce((best, other) => (Math.abs(other.getBoundingClientRect().left - left) < Math.abs(best.getBoundingClientRect().left - left) ? other : best));
}

function onSort() {
  ui.order = ui.order === "suit" ? "rank" : "suit";
  try { localStorage.setItem(ORDER_KEY, ui.order); } catch (error) { /* private mode: kept for this page */ }
  $("btn-sort").setAttribute("aria-pressed", String(ui.order === "suit"));
  render();
}

function toggleSide() {
  const open = root.dataset.side !== "open";
  root.dataset.side = open ? "open" : "closed";
  $("btn-side").setAttribute("aria-expanded", String(open));
}

function takeSelected() {
  const codes = selectedCodes();
  ui.selected.clear();
  return codes;
}

function onMeldClick(rank) {
  const cards = selectedCodes();
  if (!cards.length) {
    showMessage(gettext("Select the cards to add first, then tap the meld."));
    return;
  }
  takeSelected();
  sendAction({ type: "meld", groups: [{ cards, to: rank }] });
}

function stagedGroups() {
  return ui.staged.map((cards) => ({ cards }));
}

function checkStaging() {
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
  socket.send({ type: "check", action: { type: "meld", groups: stagedGroups() }, ref: ui.stagingRef });
}

function onTakeBack(index) {
  ui.staged.splice(index, 1);
  checkStaging();
  render();
}

function onDraw() {
  sendAction({ type: "draw" });
}

function onTakePile() {
  if (!ui.selected.size && !ui.staged.length) {
    socket.send({ type: "take_choice", ref: nextRef() }); // the server finds the cards (onTakeChoice)
    return;
  }
  let cards = selectedCodes();
  if (!cards.length) cards = ((ui.shown.options && ui.shown.options.pile_cards) || []).slice(0, 2);
  const action = { type: "take_pile", cards };
  if (ui.staged.length) action.groups = stagedGroups();
  takeSelected();
  sendAction(action);
}

function onMeld() {
  const cards = takeSelected();
  sendAction({ type: "meld", groups: [{ cards }] });
}

function onSetAside() {
  ui.staged.push(takeSelected());
  checkStaging();
  render();
  focusHandCard();
}

function onLayDown() {
  sendAction({ type: "meld", groups: stagedGroups() });
}

function onDiscard() {
  const [card] = takeSelected();
  sendAction({ type: "discard", card });
}

function onHintClick() {
  socket.send({ type: "hint" });
}

function wireControls() {
  $("btn-draw").addEventListener("click", onDraw);
  $("btn-take").addEventListener("click", onTakePile);
  $("btn-meld").addEventListener("click", onMeld);
  $("btn-aside").addEventListener("click", onSetAside);
  $("btn-laydown").addEventListener("click", onLayDown);
  $("btn-discard").addEventListener("click", onDiscard);
  $("btn-hint").addEventListener("click", onHintClick);
  $("btn-offer").addEventListener("click", playOffer);
  $("btn-offer-cancel").addEventListener("click", cancelOffer);
  $("btn-next-deal").addEventListener("click", nextDeal);
  // Escape or "Look at the table" closes the score to look at the finished deal; "Show the score" opens it again.
  $("btn-look").addEventListener("click", lookAtTable);
  $("deal-end").addEventListener("cancel", (event) => { event.preventDefault(); lookAtTable(); });
  $("btn-show-score").addEventListener("click", () => {
    if (ui.dealOver) openDealEnd(ui.dealOver.deal, ui.dealOver.score);
    render();
  });
  $("btn-sort").addEventListener("click", onSort);
  $("btn-sort").setAttribute("aria-pressed", String(ui.order === "suit"));
  $("btn-side").addEventListener("click", toggleSide);
  const hand = $("hand");
  hand.addEventListener("keydown", onHandKey);
  hand.addEventListener("focusin", (event) => { if (event.target.dataset && event.target.dataset.key) ui.focusKey = event.target.dataset.key; });
  if (typeof ResizeObserver === "function") new ResizeObserver(() => refitHand()).observe(hand);
  $("btn-close-over").addEventListener("click", () => $("game-over").close());
  initSettings($("btn-settings"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { ui.selected.clear(); render(); }
  });
}

// --- end of a deal, end of the game ----------------------------------------------------------

function lookAtTable() {
  $("deal-end").close();
  render();
  $("btn-show-score").focus();
}

function openDealEnd(deal, score) {
  showDealEnd(ui.shown, teamOf(ui.me || "S"), deal, score, teamWords(), askLookBack());
}

/** A seated player's "Look back": the question sent, the answer (or refusal) handed to results.js. */
function askLookBack() {
  if (!ui.me || !model.lookBack) return null;
  return (deal, answer) => {
    ui.lookBack = { ref: nextRef(), answer };
    if (!socket || !socket.send({ type: "look_back", deal, ref: ui.lookBack.ref })) answer({ type: "error", message: gettext("Not connected. Reconnecting…") });
  };
}

function answerLookBack(message) {
  if (!ui.lookBack || message.ref !== ui.lookBack.ref) return false;
  ui.lookBack.answer(message);
  ui.lookBack = null;
  return true;
}

/** The teams' titles ("Your team", or "North–South" for someone watching) and who plays in each. */
function teamWords() {
  const us = teamOf(ui.me || "S");
  const watching = !ui.me;
  const title = watching ? { NS: teamName("NS"), EW: teamName("EW") }
    : { [us]: gettext("Your team"), [otherTeam(us)]: gettext("Opponents") };
  const members = {};
  for (const team of ["NS", "EW"]) members[team] = joinList(CLOCKWISE.filter((seat) => teamOf(seat) === team).map(seatNameOf));
  return { watching, title, members };
}

function revealGameOver() {
  if (ui.shown && !$("game-over").open) openGameOver();
}

function openGameOver() {
  showGameOver(ui.shown, teamOf(ui.me || "S"), { mode: model.mode, ranked: model.ranked, date: model.date, gameId, teams: teamWords(), ask: askLookBack() });
}

/** After a reload: show the result the player has not acknowledged yet. */
async function offerUnseenResults(item) {
  const view = ui.shown;
  const deals = (view.scores && view.scores.deals) || [];
  if (view.winner || view.phase === "over") {
    if (!$("game-over").open) openGameOver();
    return;
  }
  if (!deals.length || !model.awaiting.includes(ui.me) || $("deal-end").open || ui.dealOver) return;
  // After a reload the state's recent events may still hold the deal's end and its table.
  const move = (item.recent || []).slice().reverse().find((entry) => (entry.events || []).some((e) => e.type === "deal_end" && e.deal === deals.length));
  const dealEnd = move && move.events.find((e) => e.type === "deal_end");
  if (dealEnd && dealEnd.table) {
    const before = { ...view, hand: {} }; // your cards as the deal ended are not in the next deal's view
    await holdDealEnd({ view, v: item.v, events: move.events }, dealEnd, before);
  } else {
    // Else the finished table is gone (the view is the next deal's): the score is not.
    ui.dealOver = { deal: deals.length, score: deals[deals.length - 1] };
    showDealOverNote();
    openDealEnd(deals.length, deals[deals.length - 1]);
    render();
  }
}

// --- start -----------------------------------------------------------------------------------

function setConnection(status) {
  const text = { connecting: gettext("Connecting…"), open: "", refused: "", closed: gettext("Connection lost. Reconnecting…"),
    limited: gettext("Too many connections are open: close another table, or try again later.") }[status];
  $("connection").textContent = text;
  $("connection").hidden = !text;
  root.dataset.connection = status;
  if (status === "open") root.dataset.connections = String(Number(root.dataset.connections || 0) + 1);
  if (status === "refused" && !ui.shown) $("turn-banner").textContent = "";
}

async function start() {
  wireControls();
  wirePlayAgain($("btn-play-again"), gameId, () => model.mode === "friends" && Boolean(ui.me));
  ui.reactions = reactionBar($("controls"), (reaction) => socket && socket.send({ type: "react", reaction }));
  render();
  try { await api("/api/session"); } catch (error) { /* the socket will say if the session is missing */ }
  socket = new ReconnectingSocket(socketUrl(root.dataset.ws || `/ws/game/${gameId}/`), {
    onMessage,
    onOpen: () => {}, // the server sends the whole state on every (re)connection
    onStatus: setConnection,
    heartbeatMs: Number(root.dataset.heartbeatMs) || undefined,
  });
  // Test hook (the page has data-test-hooks only when FOOT_TEST_HOOKS is on): the state, and
  // `receive` to feed a message as if the server sent it.
  if ("testHooks" in root.dataset) window.footTable = { model, ui, socket, pacer, receive: onMessage };
}

start();
