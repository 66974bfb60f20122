/**
 * Input and focus: the player's clicks, taps and keys become selections, set-aside groups and
 * actions sent to the server; focus goes where the next move starts.
 */
import { gettext } from "./i18n.js";
import { $ } from "./dom.js";
import { fitMelds, refitHand } from "./render.js";
import { initSettings } from "./settings.js";
import { makeOffer, ORDER_KEY, root, showMessage, ui } from "./table_state.js";
import { checkStaging, nextRef, send, sendAction, stagedGroups } from "./table_socket.js";
import { lookAtTable, nextDeal, openDealEnd } from "./table_pace.js";
import { askToNotify, render, selectedCodes } from "./table.js";

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

/**
 * The Score and log panel of a phone: opens at the newest line, ends above the turn bar, and
 * closes by its button, Escape or a tap outside (the backdrop takes that tap: never the table).
 */
function setSide(open) {
  root.dataset.side = open ? "open" : "closed";
  $("btn-side").setAttribute("aria-expanded", String(open));
  $("side-backdrop").hidden = !open;
  if (!open) {
    $("btn-side").focus();
    return;
  }
  root.style.setProperty("--side-bottom", `${innerHeight - $("turn-banner").getBoundingClientRect().top + 6}px`);
  for (const box of [$("log"), $("side")]) box.scrollTop = box.scrollHeight;
  $("btn-close-side").focus();
}

/** The selected cards for an action; kept in `ui.taken` so that a refusal gives them back (state's onError). */
function takeSelected() {
  const codes = selectedCodes();
  ui.taken = [...ui.selected];
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

function onTakeBack(index) {
  ui.staged.splice(index, 1);
  checkStaging();
  render();
}

function onTakePile() {
  if (!ui.selected.size && !ui.staged.length) {
    send({ type: "take_choice", ref: nextRef() }); // the server finds the cards (state's onTakeChoice)
    return;
  }
  let cards = selectedCodes();
  if (!cards.length) cards = ((ui.shown.options && ui.shown.options.pile_cards) || []).slice(0, 2);
  const action = { type: "take_pile", cards };
  if (ui.staged.length) action.groups = stagedGroups();
  takeSelected();
  sendAction(action);
}

function onSetAside() {
  ui.staged.push(takeSelected());
  checkStaging();
  render();
  focusHandCard();
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

export function playNext() {
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

/** The callbacks render.js attaches to the cards, melds and set-aside groups it draws. */
export const handlers = { onCardClick, onMeldClick, onTakeBack };

export function wireControls() {
  const clicks = {
    "btn-draw": () => sendAction({ type: "draw" }),
    "btn-take": onTakePile,
    "btn-meld": () => sendAction({ type: "meld", groups: [{ cards: takeSelected() }] }),
    "btn-aside": onSetAside,
    "btn-laydown": () => sendAction({ type: "meld", groups: stagedGroups() }),
    "btn-discard": () => sendAction({ type: "discard", card: takeSelected()[0] }),
    "btn-undo": () => sendAction({ type: "undo" }),
    "btn-hint": () => send({ type: "hint" }),
    "btn-offer": playOffer,
    "btn-offer-cancel": cancelOffer,
    "btn-next-deal": nextDeal,
    // Escape or "Look at the table" closes the score to look at the finished deal; "Show the score" opens it again.
    "btn-look": lookAtTable,
    "btn-show-score": () => {
      if (ui.dealOver) openDealEnd(ui.dealOver.deal, ui.dealOver.score);
      render();
    },
    "btn-sort": onSort,
    "btn-side": () => setSide(root.dataset.side !== "open"),
    "btn-close-side": () => setSide(false),
    "side-backdrop": () => setSide(false),
    "btn-close-over": () => $("game-over").close(),
    "btn-notify": askToNotify,
  };
  for (const [id, onClick] of Object.entries(clicks)) $(id).addEventListener("click", onClick);
  $("deal-end").addEventListener("cancel", (event) => { event.preventDefault(); lookAtTable(); });
  $("btn-sort").setAttribute("aria-pressed", String(ui.order === "suit"));
  const hand = $("hand");
  hand.addEventListener("keydown", onHandKey);
  hand.addEventListener("focusin", (event) => { if (event.target.dataset && event.target.dataset.key) ui.focusKey = event.target.dataset.key; });
  if (typeof ResizeObserver === "function") {
    // The hand refits to its width, which changes its height: the melds take the room left.
    new ResizeObserver(() => { refitHand(); fitMelds(); }).observe(hand);
    // The meld rows share the spare height: a row that shrinks as another grows refits too.
    const refit = new ResizeObserver(() => fitMelds());
    for (const box of [root, $("melds-us"), $("melds-them")]) if (box) refit.observe(box);
  }
  initSettings($("btn-settings"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (root.dataset.side === "open") setSide(false);
    else { ui.selected.clear(); render(); }
  });
}

/** When the hand is empty after an action (a foot to come, the deal over): the first control that works. */
export function focusFirstControl() {
  const button = [...$("controls").querySelectorAll("button")].find((candidate) => !candidate.hidden && !candidate.disabled);
  if (button) button.focus();
}

export function focusAfterDeal() {
  const draw = $("btn-draw");
  if (!draw.disabled && !draw.hidden) draw.focus();
  else focusHandCard();
}

function focusHandCard() {
  const hand = $("hand");
  const card = hand.querySelector(`[data-key="${ui.focusKey}"]`) || hand.querySelector(".card");
  if (card) card.focus({ preventScroll: true });
}
