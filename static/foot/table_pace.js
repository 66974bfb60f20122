/**
 * Pacing and the deal end: the server's messages are shown one after another (other seats' moves
 * play out), and a finished deal's last table stays with its score until "Next deal".
 */
import { Pacer, showEvent } from "./anim.js";
import { fmt, gettext } from "./i18n.js";
import { $ } from "./dom.js";
import { positions } from "./render.js";
import { GameLog } from "./log.js";
import { loadStaging } from "./staging.js";
import { CLOCKWISE, otherTeam, teamName, teamOf } from "./words.js";
import { joinList } from "./numbers.js";
import { showDealEnd, showGameOver } from "./results.js";
import { gameId, makeOffer, model, root, seatNameOf, ui } from "./table_state.js";
import { askLookBack, checkStaging, send } from "./table_socket.js";
import { focusAfterDeal, playNext } from "./table_input.js";
import { render, stagedCodes } from "./table.js";

export const pacer = new Pacer();
export const gameLog = new GameLog($("log"));
const queue = [];
let draining = false;

export function enqueue(item) {
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

export function seatElement(seat) {
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
    if (item.recap) import("./recap.js").then(({ showRecap }) => showRecap(root, item.recap, ui.me, model.players)); // fetched when needed
    restoreStaging();
    await offerUnseenResults(item);
    return;
  }
  const dealEnd = item.events.find((event) => event.type === "deal_end");
  const gameOver = item.events.find((event) => event.type === "game_over");
  // The next deal's lines ("Deal 2 begins.") wait until the player leaves the deal's score.
  const cut = dealEnd && !gameOver ? item.events.indexOf(dealEnd) + 1 : item.events.length;
  gameLog.addMove(item.v, item.events.slice(0, cut), ui.me, model.players, ui.shown);
  for (const event of item.events) await showEvent(pacer, event, places, { me: ui.me, mine: item.mine });
  if (dealEnd && !gameOver) {
    await holdDealEnd(item, dealEnd);
    gameLog.tell(item.v, item.events.slice(cut), ui.me, model.players);
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
  if (root.getAttribute("aria-busy") !== "false") showWhenSettled();
  root.dataset.v = String(v);
  render();
  if (ui.playing && !queue.length) playNext();
}

/** The table shows once its fonts are in and two frames let the hand and the melds fit: no shift as it builds. */
function showWhenSettled() {
  const frames = new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  Promise.all([document.fonts ? document.fonts.ready : null, frames]).then(() => root.setAttribute("aria-busy", "false"));
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
  showDealOverNote();
  setShown(finished, ui.shownV === null ? item.v : ui.shownV);
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
  ui.dealOver.note = how ? `${title}: ${how}.` : `${title}.`; // said by the turn bar (render.js): no room taken on the table
  $("deal-over").hidden = false;
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

export function nextDeal() {
  $("deal-end").close();
  send({ type: "next_deal" });
  if (ui.dealOver && ui.dealOver.resume) return ui.dealOver.resume();
  ui.dealOver = null;
  $("deal-over").hidden = true;
  render();
  return focusAfterDeal();
}

export function lookAtTable() {
  $("deal-end").close();
  render();
  $("btn-show-score").focus();
}

export function openDealEnd(deal, score) {
  showDealEnd(ui.shown, teamOf(ui.me || "S"), deal, score, teamWords(), askLookBack());
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

export function revealGameOver() {
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
