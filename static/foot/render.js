/**
 * Drawing the table from a seat view (docs/VIEW.md) and the page's own state (selection,
 * staged groups). Pure DOM building: it decides nothing about the rules; buttons are
 * enabled from view.options alone.
 */
import { cardBack, cardFace, cardName, compareCards, expandCounts, handGroup, rankPlural, subtractCounts } from "./cards.js";
import { formatNumber } from "./numbers.js";
import { fmt, gettext, ngettext } from "./i18n.js";
import { CLOCKWISE, otherTeam, seatName, teamName, teamOf } from "./words.js";
import { $, fill, h } from "./dom.js";

/** Seats by table position, turned so that the viewer sits at the bottom. */
export function positions(me) {
  const start = Math.max(0, CLOCKWISE.indexOf(me || "S"));
  const turned = [0, 1, 2, 3].map((i) => CLOCKWISE[(start + i) % 4]);
  return { bottom: turned[0], left: turned[1], top: turned[2], right: turned[3] };
}

/** An absent friend's note in their seat box, as away.js words it (and counts it down); none for
 * bots and players who are there. */
/** The seat's last move in words ("discarded K♦."), its name left out when the line starts with it. */
function seatLast(seat, name, ui) {
  if (!ui.lastLine) return null; // the replay has its own log
  let text = ui.lastLine(seat) || "";
  if (text.startsWith(`${name} `)) text = text.slice(name.length + 1);
  return h("p", { class: "seat-last", title: text || null, text });
}

function presenceNote(seat, ui) {
  const text = ui.awayLine ? ui.awayLine(seat) : null;
  return text ? h("p", { class: "presence", "data-away-seat": seat, text }) : null;
}

function seatBox(view, seat, ui) {
  const info = (view.seats && view.seats[seat]) || { cards: 0, foot: 0, in_foot: false };
  const isTurn = view.turn === seat && view.phase !== "over";
  const name = seatName(seat, ui.me, ui.players);
  const where = info.in_foot
    ? h("span", { class: "badge in-foot", text: gettext("In the foot") })
    : h("span", { class: "badge", text: fmt(ngettext("Foot: %(count)s card", "Foot: %(count)s cards", info.foot), { count: info.foot }) });
  return [
    h("h2", { class: "seat-name" }, isTurn ? h("span", { class: "turn-mark", text: "▶ " }) : null, name),
    h("div", { class: "seat-cards" },
      h("div", { class: "mini-stack", "aria-hidden": "true" }, cardBack()),
      h("span", { class: "count", text: fmt(ngettext("%(count)s card", "%(count)s cards", info.cards), { count: info.cards }) }),
      where),
    isTurn ? h("p", { class: "turn-text", text: gettext("Playing now") }) : null,
    seatLast(seat, name, ui),
    presenceNote(seat, ui),
  ];
}

export function renderSeats(view, ui) {
  const place = positions(ui.me);
  for (const [position, seat] of Object.entries(place)) {
    const box = $(`seat-${position}`);
    fill(box, ...seatBox(view, seat, ui));
    box.dataset.seat = seat;
    box.classList.toggle("is-turn", view.turn === seat && view.phase !== "over");
    box.classList.toggle("partner", teamOf(seat) === teamOf(ui.me || "S"));
    box.setAttribute("aria-label", seatName(seat, ui.me, ui.players));
  }
}

export function renderCentre(view) {
  const stock = $("stock");
  const stockLabel = fmt(ngettext("Stock: %(count)s card", "Stock: %(count)s cards", view.stock), { count: view.stock });
  fill(stock,
    h("div", { class: `pile-stack${view.stock > 1 ? " many" : ""}`, "aria-hidden": "true" }, view.stock ? cardBack() : h("div", { class: "card empty" })),
    h("p", { class: "pile-label", text: stockLabel }),
  );
  const discard = $("discard");
  const pile = view.discard || [];
  const shown = pile.slice(-DISCARD_SHOWN);
  const size = fmt(ngettext("Discard pile: %(count)s card", "Discard pile: %(count)s cards", pile.length), { count: pile.length });
  const topNames = shown.slice().reverse().map(cardName).join(", ");
  const name = pile.length ? fmt(gettext("%(size)s. On top: %(cards)s"), { size, cards: topNames }) : size;
  fill(discard,
    h("div", { class: "pile-fan", role: "img", "aria-label": name },
      ...(shown.length ? shown.map((code) => decorative(cardFace(code))) : [h("div", { class: "card empty", text: "—" })])),
    h("p", { class: "pile-label", "aria-hidden": "true", text: size }),
    view.discard_blocked ? h("p", { class: "badge blocked", text: `⛔ ${gettext("Blocked: a three is on top")}` }) : null,
  );
  discard.classList.toggle("blocked", Boolean(view.discard_blocked));
}

const DISCARD_SHOWN = 5; // the top cards of the discard pile drawn fanned; the rest is counted
const PILE_MARK = { clean: "✓", dirty: "≈", wild: "★" };

/** A card drawn only for the eye (its name is part of an enclosing label). */
function decorative(card) {
  card.removeAttribute("role");
  card.removeAttribute("aria-label");
  card.setAttribute("aria-hidden", "true");
  return card;
}

function meldStatusText(meld) {
  const count = meld.cards.length;
  switch (meld.status) {
    case "clean": return gettext("Clean pile");
    case "dirty": return gettext("Dirty pile");
    case "wild": return gettext("Wild pile");
    default: return fmt(gettext("%(count)s of 7"), { count });
  }
}

/** "Queens, 4 cards, incomplete: Queen of hearts, …": what a screen reader hears for a meld. */
function meldLabel(meld) {
  const parts = [rankPlural(meld.rank)];
  if (meld.status === "incomplete") {
    parts.push(fmt(ngettext("%(count)s card", "%(count)s cards", meld.cards.length), { count: meld.cards.length }), gettext("incomplete"));
  } else parts.push(meldStatusText(meld));
  return `${parts.join(", ")}: ${meldCards(meld).map(cardName).join(", ")}`;
}

/** A meld's cards for the eye: the naturals first, then the wild cards (2s before jokers). */
function meldCards(meld) {
  return meld.cards.slice().sort((a, b) => compareCards(a, b, "suit"));
}

/** An open meld is a small fan of its cards; a completed pile is a squared stack with its kind. */
function meldBody(meld) {
  const cards = meldCards(meld);
  if (meld.status === "incomplete") {
    return [
      h("div", { class: "fan", "aria-hidden": "true" }, ...cards.map((code) => decorative(cardFace(code)))),
      h("span", { class: "meld-caption", "aria-hidden": "true" }, h("b", { text: rankPlural(meld.rank) }), " ", meldStatusText(meld)),
    ];
  }
  const top = meld.status === "wild" ? cards[cards.length - 1] : cards[0];
  return [
    h("div", { class: "squared", "aria-hidden": "true" }, decorative(cardFace(top)),
      h("span", { class: "pile-mark", text: PILE_MARK[meld.status] })),
    h("span", { class: "meld-caption", "aria-hidden": "true" }, h("b", { text: rankPlural(meld.rank) }), " ",
      `${PILE_MARK[meld.status]} ${meldStatusText(meld)}`),
  ];
}

function meldElement(key, meld, ui, addable) {
  const last = ui.lastMelds && ui.lastMelds.has(`${ui.team}:${key}`) ? " last-move" : "";
  const classes = `meld status-${meld.status}${meld.status === "incomplete" ? " open" : " complete"}${addable ? " can-add" : ""}${last}`;
  const attrs = { class: classes, "data-meld": key, "data-rank": meld.rank, "data-status": meld.status };
  if (ui.canAddTo) {
    const label = fmt(gettext("%(meld)s. Add the selected cards"), { meld: meldLabel(meld) });
    return h("button", { ...attrs, type: "button", "aria-label": label, onclick: () => ui.onMeldClick(meld.rank) }, ...meldBody(meld));
  }
  return h("div", { ...attrs, role: "img", "aria-label": meldLabel(meld) }, ...meldBody(meld));
}

function redThrees(count) {
  if (!count) return null;
  const label = fmt(ngettext("%(count)s red three", "%(count)s red threes", count), { count });
  return h("div", { class: "red-threes", role: "img", "aria-label": label },
    h("div", { class: "fan", "aria-hidden": "true" },
      ...Array.from({ length: Math.min(count, 4) }, (_, i) => decorative(cardFace(i % 2 ? "3D" : "3H")))),
    h("span", { class: "meld-caption", "aria-hidden": "true", text: label }));
}

/** Both teams' melds; the melds the last move of a finished deal went to are marked (ui.lastMelds). */
export function renderMelds(view, ui) {
  const us = teamOf(ui.me || "S");
  const addTo = (view.options && view.options.add_to) || {};
  for (const [team, id, mine] of [[us, "melds-us", true], [otherTeam(us), "melds-them", false]]) {
    const melds = (view.melds && view.melds[team]) || {};
    const keys = Object.keys(melds).sort((a, b) => Number(a) - Number(b));
    const piles = [];
    const elements = [];
    for (const key of keys) {
      const meld = melds[key];
      const open = mine && meld.status === "incomplete";
      const addable = open && ui.selectedCodes.length > 0 && ui.selectedCodes.every((code) => (addTo[meld.rank] || []).includes(code));
      (meld.status === "incomplete" ? elements : piles).push(meldElement(key, meld, { ...ui, team, canAddTo: open && ui.isMyTurn }, addable));
    }
    if (!keys.length) elements.push(h("p", { class: "empty-note", text: view.down && view.down[team] ? "" : gettext("Not down yet") }));
    // The completed piles together: laid out with the rest, or at the tightest level two high (foot.css).
    fill($(id), piles.length ? h("div", { class: "piles" }, ...piles) : null, redThrees(view.red_threes && view.red_threes[team]), ...elements);
  }
}

const MELD_LEVELS = 5; // 0 as drawn, 1 piles as marked stacks, 2 smaller cards, 3 no open captions, 4 narrower, 5 low piles

/** Every meld in sight at the roomiest level that holds them (docs/VIEW.md). From the current level: a patch costs a layout or two. */
export function fitMelds() {
  const table = $("table");
  const boxes = [$("melds-us"), $("melds-them")];
  if (!table || boxes.some((box) => !box)) return;
  const fits = () => boxes.every((box) => box.scrollHeight <= box.clientHeight && box.scrollWidth <= box.clientWidth);
  const set = (level) => { table.dataset.melds = String(level); };
  let level = Number(table.dataset.melds || 0);
  while (level > 0) { // a roomier level, while it fits (a hand grew smaller, a meld was completed)
    set(level - 1);
    if (!fits()) break;
    level -= 1;
  }
  set(level);
  while (level < MELD_LEVELS && !fits()) set(++level);
}

function checklist(view, team) {
  const needs = view.going_out_needs || { clean: 2, dirty: 2, wild: 1 };
  const have = (view.piles && view.piles[team]) || { clean: 0, dirty: 0, wild: 0 };
  const names = { clean: gettext("Clean piles"), dirty: gettext("Dirty piles"), wild: gettext("Wild pile") };
  return h("ul", { class: "checklist", "aria-label": gettext("Piles needed to go out") },
    ...Object.keys(needs).map((kind) => {
      const done = (have[kind] || 0) >= needs[kind];
      return h("li", { class: done ? "done" : "" }, h("span", { "aria-hidden": "true", text: done ? "☑ " : "☐ " }),
        `${names[kind]}: ${formatNumber(Math.min(have[kind] || 0, needs[kind]))}/${formatNumber(needs[kind])}`, // never "5/2"
        done ? h("span", { class: "visually-hidden", text: ` (${gettext("done")})` }) : null);
    }));
}

function scoreTable(view, us, watching) {
  const scores = view.scores || { deals: [], totals: {} };
  const them = otherTeam(us);
  const rows = (scores.deals || []).map((deal, index) => h("tr", {},
    h("th", { scope: "row", text: fmt(gettext("Deal %(deal)s"), { deal: index + 1 }) }),
    h("td", { text: formatNumber(deal[us] ? deal[us].total : 0) }), h("td", { text: formatNumber(deal[them] ? deal[them].total : 0) })));
  const totals = scores.totals || {};
  return h("table", { class: "scores" },
    h("caption", { text: gettext("Score") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: watching ? teamName(us) : gettext("Us") }),
      h("th", { scope: "col", text: watching ? teamName(otherTeam(us)) : gettext("Them") }))),
    h("tbody", {}, ...rows),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: gettext("Total") }), h("td", { text: formatNumber(totals[us] || 0) }), h("td", { text: formatNumber(totals[them] || 0) }))));
}

export function renderStatus(view, ui) {
  const us = teamOf(ui.me || "S");
  const them = otherTeam(us);
  // a game of house rules carries its rules in the view (docs/VIEW.md); a standard game has four deals
  $("deal-info").textContent = fmt(gettext("Deal %(deal)s of %(deals)s"), { deal: view.deal, deals: view.rules ? view.rules.deals : 4 });
  $("minimum-info").textContent = fmt(gettext("First meld: %(points)s points"), { points: view.first_meld_minimum });
  const down = (team) => (view.down && view.down[team]);
  $("minimum-info").classList.toggle("met", Boolean(down(us))); // a small screen leaves it out once it no longer matters
  // Someone watching sits with neither team: the teams go by their seats (North–South, East–West).
  const watching = !ui.me;
  const isDown = (team) => fmt(gettext("%(team)s is down"), { team: teamName(team) });
  const notDown = (team) => fmt(gettext("%(team)s is not down yet"), { team: teamName(team) });
  fill($("status"),
    h("h2", { text: watching ? teamName(us) : gettext("Your team") }),
    h("p", { class: `down ${down(us) ? "yes" : "no"}`, text: down(us)
      ? `✓ ${watching ? isDown(us) : gettext("Your team is down")}` : `○ ${watching ? notDown(us) : gettext("Your team is not down yet")}` }),
    checklist(view, us),
    h("p", { class: "them-down", text: watching ? (down(them) ? isDown(them) : notDown(them))
      : (down(them) ? gettext("The opponents are down") : gettext("The opponents are not down yet")) }),
    scoreTable(view, us, watching),
  );
}

/** The hand, without the staged cards, in display order (naturals by rank or suit, wild cards, threes). */
export function handCards(view, stagedCodes, order = "rank") {
  return expandCounts(subtractCounts(view.hand || {}, stagedCodes), order);
}

/** The keys ("9C:2" = the second 9C) of a list of card codes, as the hand's buttons carry them. */
export function handKeys(cards) {
  const seen = {};
  return new Set(cards.map((code) => { seen[code] = (seen[code] || 0) + 1; return `${code}:${seen[code]}`; }));
}

/**
 * The hand: one button per card, alike cards (copies, or on a narrow phone a rank) in a `.copies`
 * stack, a gap between groups; docs/VIEW.md says when and why. The focused card (roving
 * tabindex) is `ui.focusKey`; fitHand sets the overlap afterwards.
 */
export function renderHand(view, ui) {
  const hand = $("hand");
  const hadFocus = hand.contains(document.activeElement);
  const cards = handCards(view, ui.stagedCodes, ui.order);
  const keys = [...handKeys(cards)];
  const focusKey = keys.includes(ui.focusKey) ? ui.focusKey : keys[0];
  hand.dataset.count = String(cards.length);
  laidOut = { hand, view, cards, keys, focusKey, ui, room: null };
  layHand();
  if (hadFocus || ui.focusHand) {
    const again = hand.querySelector(`[data-key="${focusKey}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

let laidOut = null; // what the hand was last drawn from, to lay it out again when its room changes

/** What the hand's layout depends on besides its cards: its width and the card size (a setting). */
const handRoom = (hand) => `${hand.clientWidth}|${getComputedStyle(hand).getPropertyValue("--card-w")}`;

/** Stacks of copies in two rows (in the suit order: three); else stacks of ranks in two rows; else three. */
function layHand() {
  const { hand, view, cards, keys, focusKey, ui } = laidOut;
  laidOut.room = handRoom(hand);
  const lay = (alike, order, laid = cards, laidKeys = keys) => {
    fill(hand, ...handStacks(laid, laidKeys, focusKey, ui, alike, order));
    hand.dataset.alike = alike === rankOf ? "rank" : "card";
  };
  lay(codeOf, ui.order);
  if (!cards.length || fitHand(hand, TWO_ROWS) || (ui.order === "suit" && fitHand(hand, MAX_ROWS))) return;
  const byRank = ui.order === "rank" ? cards : handCards(view, ui.stagedCodes, "rank");
  lay(rankOf, "rank", byRank, [...handKeys(byRank)]); // the same keys: "9C:2" is the second 9C in any order
  if (!fitHand(hand, TWO_ROWS)) fitHand(hand, MAX_ROWS, { squeeze: true });
}

/** After the hand's room changed (a resize, a rotated phone, large cards): the same cards laid out again. */
export function refitHand() {
  if (!laidOut || handRoom(laidOut.hand) === laidOut.room) return;
  const focused = laidOut.hand.contains(document.activeElement) && document.activeElement.dataset.key;
  layHand();
  const again = focused && laidOut.hand.querySelector(`[data-key="${focused}"]`);
  if (again) again.focus({ preventScroll: true });
}

const codeOf = (code) => code;
const rankOf = (code) => (code === "JK" ? "JK" : code[0]); // a joker is not a jack

/** The hand's buttons in stacks of alike cards (`alike(code)` names a card's stack), grouped by `order`. */
function handStacks(cards, keys, focusKey, ui, alike, order) {
  const stacks = [];
  let group = null;
  keys.forEach((key, index) => {
    const code = cards[index];
    const button = cardFace(code, "button");
    button.dataset.key = key;
    button.tabIndex = key === focusKey ? 0 : -1;
    button.setAttribute("aria-pressed", ui.selected.has(key) ? "true" : "false");
    if (ui.hinted.has(code)) button.classList.add("hinted");
    button.addEventListener("click", () => ui.onCardClick(key));
    const last = stacks[stacks.length - 1];
    if (last && last.dataset.code === alike(code)) { last.append(button); return; }
    const stack = h("span", { class: "copies", "data-code": alike(code) }, button);
    const thisGroup = handGroup(code, order);
    if (group !== null && thisGroup !== group) stack.classList.add("group-start");
    group = thisGroup;
    stacks.push(stack);
  });
  if (!cards.length) {
    // The last hand card discarded: the foot is picked up when the next turn starts (R25), say so.
    const text = ui.footNext ? gettext("No cards in your hand: you pick up your foot when your next turn starts.") : gettext("No cards in your hand");
    stacks.push(h("p", { class: "empty-note", text }));
  }
  return stacks;
}

const MIN_STEP = 24; // px of each card left visible: its index corner, and a target wide enough to tap
const COPY_STEP = 6; // px at least between alike cards when the hand must squeeze (a stack is one target)
const TWO_ROWS = 2; // the rows a hand takes (issue 13), ...
const MAX_ROWS = 3; // ... but in the suit order, or with large cards on a phone, when even ranks stacked need more

/**
 * How to lay out `count` cards (`distinct` stacks of alike ones) in `width` px on `rows` rows: the
 * step between stacks, and between alike cards (squeezed first when the step would fall under
 * MIN_STEP: each stack keeps MIN_STEP, its other cards share what is left, at least COPY_STEP),
 * and whether each card then shows enough of itself (a comfortable part on one row).
 */
export function handPlan(width, cardWidth, groupGap, groups, count, distinct, rows) {
  const comfortable = Math.min(cardWidth + 4, Math.max(cardWidth * 0.45, MIN_STEP + 4));
  const room = rows * (width - cardWidth) - groups * groupGap;
  let step = room / Math.max(count - rows, 1);
  let copyStep = step;
  if (rows > 1 && step < MIN_STEP && distinct < count) {
    const shared = (room - Math.max(distinct - rows, 0) * MIN_STEP) / (count - distinct);
    copyStep = Math.max(COPY_STEP, Math.min(shared, MIN_STEP));
    step = (room - (count - distinct) * copyStep) / Math.max(distinct - rows, 1);
  }
  return { rows, step: Math.min(step, cardWidth + 4), copyStep: Math.min(copyStep, step, cardWidth + 4),
    enough: step >= (rows === 1 ? comfortable : MIN_STEP) };
}

function rowsUsed(stacks) {
  return new Set([...stacks].map((stack) => stack.offsetTop)).size;
}

/**
 * The hand's overlap (--step, --copy-step, data-rows): the fewest rows up to `maxRows` on which
 * every card shows enough of itself (true), else false. Whole stacks wrap, so the layout is
 * measured and tightened or given a row. `squeeze`: `maxRows` rows however narrow.
 */
export function fitHand(hand, maxRows, { squeeze = false } = {}) {
  const stacks = hand.querySelectorAll(".copies");
  const count = Number(hand.dataset.count || 0);
  if (!count || !hand.clientWidth) return true;
  const style = getComputedStyle(hand);
  const cardWidth = parseFloat(style.getPropertyValue("--card-w")) || 44;
  const gap = parseFloat(style.getPropertyValue("--group-gap")) || 8;
  const width = hand.clientWidth - 2 * (parseFloat(style.getPropertyValue("--hand-pad")) || 0) - 1;
  const groups = hand.querySelectorAll(".group-start").length;
  const apply = (plan) => {
    hand.style.setProperty("--step", `${Math.floor(plan.step * 10) / 10}px`);
    hand.style.setProperty("--copy-step", `${Math.floor(plan.copyStep * 10) / 10}px`);
    hand.dataset.rows = String(plan.rows);
  };
  for (let rows = 1; rows <= maxRows; rows += 1) {
    const plan = handPlan(width, cardWidth, gap, groups, count, stacks.length, rows);
    const lastResort = squeeze && rows === maxRows;
    if (!plan.enough && !lastResort) continue;
    apply(plan);
    const floor = lastResort ? 0 : MIN_STEP;
    // Alike cards give up their room first (down to COPY_STEP), each stack's top card last.
    const copiesGive = () => plan.copyStep < plan.step && plan.copyStep * 0.97 >= COPY_STEP;
    while (rowsUsed(stacks) > rows && (copiesGive() || plan.step * 0.97 >= floor)) {
      if (copiesGive()) plan.copyStep *= 0.97;
      else plan.step *= 0.97;
      plan.copyStep = Math.min(plan.copyStep, plan.step);
      apply(plan);
    }
    if (rowsUsed(stacks) <= rows) return true;
  }
  return false;
}

export function renderStaging(ui) {
  const box = $("staging");
  box.hidden = !ui.showStaging;
  if (!ui.showStaging) return;
  fill($("staged-groups"), ...ui.staged.map((group, index) =>
    h("div", { class: "staged-group" },
      h("div", { class: "staged-cards", role: "group", "aria-label": group.map(cardName).join(", ") }, ...group.map((code) => cardFace(code))),
      h("button", { type: "button", class: "small quiet", onclick: () => ui.onTakeBack(index),
        "aria-label": fmt(gettext("Take back %(cards)s"), { cards: group.map(cardName).join(", ") }), text: gettext("Take back") }))));
  $("staging-status").textContent = ui.stagingStatus || "";
}

export function renderTurnBanner(view, ui) {
  const banner = $("turn-banner");
  let text;
  if (ui.dealOver) text = ui.dealOver.note || fmt(gettext("Deal %(deal)s is over"), { deal: ui.dealOver.deal });
  else if (view.phase === "over" || view.winner) text = gettext("The game is over.");
  else if (view.turn === ui.me && view.phase === "draw") text = gettext("Your turn: draw 2 cards or take the pile.");
  else if (view.turn === ui.me) text = gettext("Your turn: meld, then discard one card.");
  else text = fmt(gettext("%(name)s is playing…"), { name: seatName(view.turn, ui.me, ui.players) });
  banner.textContent = text;
  banner.classList.toggle("mine", view.turn === ui.me && view.phase !== "over");
}

export function renderControls(view, ui) {
  const options = view.options || {};
  const selected = ui.selectedCodes.length;
  const notDown = (options.minimum || 0) > 0;
  const set = (id, enabled, visible = true) => {
    const button = $(id);
    button.hidden = !visible;
    button.disabled = !enabled || ui.busy;
    button.classList.toggle("hinted", ui.hintedButton === id);
  };
  const undo = Boolean(options.meld && view.rules && view.rules.undo);
  set("btn-draw", options.draw);
  set("btn-take", options.draw, !undo); // pressed when no take works, it asks the server, which says why
  set("btn-meld", options.meld && selected > 0);
  set("btn-aside", ui.isMyTurn && selected > 0 && view.phase !== "over", notDown && ui.isMyTurn);
  set("btn-laydown", options.meld && ui.staged.length > 0 && ui.stagingOk, notDown && ui.isMyTurn);
  set("btn-discard", options.discard && selected === 1);
  set("btn-undo", options.undo, undo);
  set("btn-hint", ui.isMyTurn, !ui.ranked && Boolean(ui.me));
}

