/**
 * The table's state and what the server's messages do to it: `model` is the latest from the server
 * (what patches apply to), `ui` what the page shows (`shown` may lag behind `model.view` while other
 * seats' moves play out). It holds no game rule: what may be done comes from view.options.
 */
import { fmt, gettext } from "./i18n.js";
import { api } from "./net.js";
import { applyPatch } from "./patch.js";
import { $ } from "./dom.js";
import { lapsedLine, modeLine } from "./deadline.js";
import { directionName, seatName } from "./words.js";
import { hintWords, offerButton, offerCards, takeWords } from "./hint.js";
import { showReaction } from "./reactions.js";
import { renderSeats } from "./render.js";
import { enqueue, revealGameOver, seatElement } from "./table_pace.js";
import { answerLookBack, send, settlePending, sync } from "./table_socket.js";
import { render, renderContext } from "./table.js";

export const root = $("table");
export const gameId = root.dataset.game;
export const ORDER_KEY = "foot.sort";

export const model = { v: null, view: null, seat: null, mode: null, ranked: false, rankedUntil: null, lapsed: null, players: {}, awaiting: [], status: null };
export const ui = {
  shown: null, shownV: null, selected: new Set(), staged: [], stagingOk: false, stagingStatus: "",
  stagingRef: null, pending: null, presence: {}, hinted: new Set(), hintedButton: null, offer: null, playing: null,
  order: storedOrder(), focusKey: null, refocus: false, dealOver: null, lastMelds: new Set(), lookBack: null,
};
/** A friends table before it starts (lobby.js, fetched only for a game in its lobby). */
export let lobby = null;
let lobbyLoading = null;
export function openLobby() {
  lobbyLoading = lobbyLoading || import("./lobby.js").then(({ Lobby }) => {
    lobby = new Lobby($("lobby"), {
      sit: (seat) => { if (!send({ type: "seat", seat })) throw new Error(gettext("Not connected. Reconnecting…")); },
      join: (seat) => api(`/api/games/${gameId}/join`, { seat }),
      start: () => api(`/api/games/${gameId}/start`, {}),
    });
  });
  return lobbyLoading;
}
/** Friends away (away.js, fetched once a presence message names a deadline or a stand-in). */
export let awayNotes = null;
let awayLoading = null;

/** The hand's order, a setting kept per browser: "rank" (the default) or "suit". */
function storedOrder() {
  try { return localStorage.getItem(ORDER_KEY) === "suit" ? "suit" : "rank"; } catch (error) { return "rank"; }
}

export function onMessage(message) {
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
    case "play_again": return playAgain().then((again) => again.offerLobby(message, ui.me, seatNameOf, revealGameOver));
    case "reaction": return showReaction(seatElement(message.seat), message.seat, seatNameOf(message.seat), message.reaction);
    default: return null;
  }
}

function onState(message) {
  model.v = message.v;
  model.view = message.view;
  model.seat = message.seat || (message.view && message.view.seat) || null;
  model.mode = message.mode || model.mode;
  model.level = message.level || model.level; // Play again starts a game like this one (again.js)
  model.rules = message.rules || model.rules;
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
  // a lobby only: its house rules (the host's choice; the page reloads when the host changes them)
  if (model.status === "lobby") import("./lobby_rules.js").then(({ reloadIfRulesChanged }) => reloadIfRulesChanged(message.rules));
  ui.me = model.seat;
  showMode();
  askLesson();
  if (ui.pending) settlePending(ui.pending.ref);
  enqueue({ kind: "state", v: message.v, view: message.view, recent: message.recent, recap: message.recap });
  playAgain(); // every game's dialog offers it (solo, daily, lesson: a game like this one)
  if (message.play_again) playAgain().then((again) => again.offerLobby(message.play_again, ui.me, seatNameOf, () => {})); // its dialog opens with the result
}

/** Play again (again.js, fetched once the state arrives): a new game with this one's settings. */
let againLoading = null;
function playAgain() {
  againLoading = againLoading || import("./again.js").then((again) => {
    again.wirePlayAgain($("btn-play-again"), gameId,
      () => ({ mode: model.mode, level: model.level, rules: model.rules, seated: Boolean(ui.me) }));
    return again;
  });
  return againLoading;
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
  if (!awayNotes && (awayLoading || Object.keys(message.deadlines || {}).length || (message.stand_ins || []).length)) {
    awayLoading = awayLoading || import("./away.js").then(({ AwayNotes }) => {
      awayNotes = new AwayNotes($("away-notes"), (seat) => personName(seat));
    });
    awayLoading.then(() => onPresence(message));
    return null;
  }
  if (awayNotes) awayNotes.update(message, ui.me);
  if (ui.shown) renderSeats(ui.shown, renderContext());
  else render(); // the lobby shows who is here
  return null;
}

/** A friend by their nickname ("Friend (North)" without one), as the away notes say it. */
function personName(seat) {
  const player = model.players[seat];
  return (player && player.name) || fmt(gettext("%(name)s (%(direction)s)"), { name: gettext("Friend"), direction: directionName(seat) });
}

export function seatNameOf(seat) {
  return seat ? seatName(seat, ui.me, model.players) : "";
}

/** Says whether this daily counts for the leaderboard, and until when (deadline.js). */
function showMode() {
  const info = $("mode-info");
  if (info) info.textContent = modeLine(model);
}

/** Learn to play: the server's current step of the lesson, shown above the controls (lesson.js, fetched for a lesson only). */
let lessonPrompt = null;
async function askLesson() {
  if (model.mode !== "lesson" || !ui.me) return;
  if (!lessonPrompt) lessonPrompt = import("./lesson.js").then(({ LessonPrompt }) => new LessonPrompt(gameId, document.querySelector(".player")));
  (await lessonPrompt).refresh();
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
  if (mine) ui.taken = null;
  enqueue({ kind: "patch", v: message.v, view: next, events: message.events || [], mine });
  return null;
}

function onError(message) {
  if (answerLookBack(message)) return;
  const action = settlePending(message.ref);
  // On stale_version the server sends the whole state by itself: nothing to ask for here.
  if (message.ref && message.ref === ui.stagingRef) ui.stagingStatus = message.message || message.code;
  else if (action || !message.ref) showMessage(message.message || message.code);
  if (model.status === "lobby" && !action && lobby) lobby.error(message.message || message.code);
  if (action) ui.playing = null; // an offer being played stops at a refusal, which says why
  if (action && ui.taken) ui.selected = new Set(ui.taken); // refused: the cards stay picked, to try again
  ui.taken = null;
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

export function makeOffer(kind, actions) {
  ui.offer = kind && actions.length ? { kind, actions, v: ui.shownV } : null;
  ui.hinted = new Set(offerCards(actions));
  ui.hintedButton = offerButton(actions);
}

export function showMessage(text) {
  $("message").textContent = text;
}
