/**
 * Drawing the table from a seat view (docs/VIEW.md) and the page's own state (selection,
 * staged groups). Pure DOM building: it decides nothing about the rules; buttons are
 * enabled from view.options alone.
 */
import { cardBack, cardFace, cardName, expandCounts, handGroup, parseCard, rankPlural, subtractCounts } from "./cards.js";
import { formatNumber } from "./numbers.js";
import { fmt, gettext, ngettext } from "./i18n.js";
import { CLOCKWISE, otherTeam, seatName, teamOf } from "./words.js";

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : value);
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

const $ = (id) => document.getElementById(id);

/** Replaces an element's children, skipping the nulls that conditional parts leave. */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** Seats by table position, turned so that the viewer sits at the bottom. */
export function positions(me) {
  const start = Math.max(0, CLOCKWISE.indexOf(me || "S"));
  const turned = [0, 1, 2, 3].map((i) => CLOCKWISE[(start + i) % 4]);
  return { bottom: turned[0], left: turned[1], top: turned[2], right: turned[3] };
}

/** A friend's connection, told in words (bots and connected players need no note). */
function presenceNote(presence) {
  if (presence === "disconnected") return h("p", { class: "presence", text: gettext("Disconnected") });
  if (presence === "away") return h("p", { class: "presence", text: gettext("Away: the computer plays for now") });
  return null;
}

function seatBox(view, seat, ui) {
  const info = (view.seats && view.seats[seat]) || { cards: 0, foot: 0, in_foot: false };
  const isTurn = view.turn === seat && view.phase !== "over";
  const name = seatName(seat, ui.me, ui.players);
  const where = info.in_foot
    ? h("span", { class: "badge in-foot", text: gettext("In the foot") })
    : h("span", { class: "badge", text: fmt(ngettext("Foot: %(count)s card", "Foot: %(count)s cards", info.foot), { count: info.foot }) });
  const presence = ui.presence && ui.presence[seat];
  return [
    h("h2", { class: "seat-name" }, isTurn ? h("span", { class: "turn-mark", text: "▶ " }) : null, name),
    h("div", { class: "seat-cards" },
      h("div", { class: "mini-stack", "aria-hidden": "true" }, cardBack()),
      h("span", { class: "count", text: fmt(ngettext("%(count)s card", "%(count)s cards", info.cards), { count: info.cards }) }),
      where),
    isTurn ? h("p", { class: "turn-text", text: gettext("Playing now") }) : null,
    presenceNote(presence),
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
    h("div", { class: "pile-stack", "aria-hidden": "true" }, cardBack()),
    h("p", { class: "pile-label", text: stockLabel }),
  );
  const discard = $("discard");
  const pile = view.discard || [];
  const top = pile[pile.length - 1];
  const size = fmt(ngettext("Discard pile: %(count)s card", "Discard pile: %(count)s cards", pile.length), { count: pile.length });
  fill(discard,
    h("div", { class: `pile-stack${pile.length > 1 ? " many" : ""}` }, top ? cardFace(top) : h("div", { class: "card empty", text: "—" })),
    h("p", { class: "pile-label", text: size }),
    view.discard_blocked ? h("p", { class: "badge blocked", text: `⛔ ${gettext("Blocked: a three is on top")}` }) : null,
  );
  discard.classList.toggle("blocked", Boolean(view.discard_blocked));
}

function meldStatusText(meld) {
  const count = meld.cards.length;
  switch (meld.status) {
    case "clean": return `✓ ${gettext("Clean pile")}`;
    case "dirty": return `≈ ${gettext("Dirty pile")}`;
    case "wild": return `★ ${gettext("Wild pile")}`;
    default: return fmt(gettext("%(count)s of 7"), { count });
  }
}

function meldLabel(meld) {
  const wild = meld.cards.filter((code) => parseCard(code).wild).length;
  const parts = [rankPlural(meld.rank), fmt(ngettext("%(count)s card", "%(count)s cards", meld.cards.length), { count: meld.cards.length })];
  if (meld.rank !== "wild" && wild) parts.push(fmt(ngettext("%(count)s wild card", "%(count)s wild cards", wild), { count: wild }));
  parts.push(meld.status === "incomplete" ? gettext("incomplete") : meldStatusText(meld).slice(2));
  return parts.join(", ");
}

function meldElement(key, meld, ui, addable) {
  const wild = meld.cards.filter((code) => parseCard(code).wild).length;
  const face = h("div", { class: `card meld-face${meld.rank === "wild" ? " joker" : ""}`, "aria-hidden": "true" },
    h("span", { class: "corner", text: meld.rank === "wild" ? "★" : (meld.rank === "T" ? "10" : meld.rank) }));
  const body = [
    h("div", { class: "stack", style: `--depth:${Math.min(meld.cards.length, 7)}` }, face),
    h("div", { class: "meld-text" },
      h("span", { class: "meld-rank", text: rankPlural(meld.rank) }),
      h("span", { class: "meld-status", text: meldStatusText(meld) }),
      meld.rank !== "wild" && wild ? h("span", { class: "meld-wild", text: fmt(gettext("+%(count)s wild"), { count: wild }) }) : null),
  ];
  const classes = `meld status-${meld.status}${addable ? " can-add" : ""}`;
  if (ui.canAddTo) {
    const label = fmt(gettext("%(meld)s. Add the selected cards"), { meld: meldLabel(meld) });
    return h("button", { type: "button", class: classes, "data-meld": key, "data-rank": meld.rank, "aria-label": label,
      onclick: () => ui.onMeldClick(meld.rank) }, ...body);
  }
  return h("div", { class: classes, "data-meld": key, "data-rank": meld.rank, role: "img", "aria-label": meldLabel(meld) }, ...body);
}

function redThrees(count) {
  if (!count) return null;
  return h("p", { class: "red-threes", text: `${"♦".repeat(Math.min(count, 6))} ${fmt(ngettext("%(count)s red three", "%(count)s red threes", count), { count })}` });
}

export function renderMelds(view, ui) {
  const us = teamOf(ui.me || "S");
  for (const [team, id, mine] of [[us, "melds-us", true], [otherTeam(us), "melds-them", false]]) {
    const melds = (view.melds && view.melds[team]) || {};
    const keys = Object.keys(melds).sort((a, b) => Number(a) - Number(b));
    const addTo = (view.options && view.options.add_to) || {};
    const elements = keys.map((key) => {
      const meld = melds[key];
      const open = mine && meld.status === "incomplete";
      const addable = open && ui.selectedCodes.length > 0 && ui.selectedCodes.every((code) => (addTo[meld.rank] || []).includes(code));
      return meldElement(key, meld, { ...ui, canAddTo: open && ui.isMyTurn }, addable);
    });
    if (!elements.length) elements.push(h("p", { class: "empty-note", text: view.down && view.down[team] ? "" : gettext("Not down yet") }));
    fill($(id), ...elements, redThrees(view.red_threes && view.red_threes[team]));
  }
}

function checklist(view, team) {
  const needs = view.going_out_needs || { clean: 2, dirty: 2, wild: 1 };
  const have = (view.piles && view.piles[team]) || { clean: 0, dirty: 0, wild: 0 };
  const names = { clean: gettext("Clean piles"), dirty: gettext("Dirty piles"), wild: gettext("Wild pile") };
  return h("ul", { class: "checklist", "aria-label": gettext("Piles needed to go out") },
    ...Object.keys(needs).map((kind) => {
      const done = (have[kind] || 0) >= needs[kind];
      return h("li", { class: done ? "done" : "" }, h("span", { "aria-hidden": "true", text: done ? "☑ " : "☐ " }),
        `${names[kind]}: ${formatNumber(Math.min(have[kind] || 0, 99))}/${formatNumber(needs[kind])}`,
        done ? h("span", { class: "visually-hidden", text: ` (${gettext("done")})` }) : null);
    }));
}

function scoreTable(view, us) {
  const scores = view.scores || { deals: [], totals: {} };
  const them = otherTeam(us);
  const rows = (scores.deals || []).map((deal, index) => h("tr", {},
    h("th", { scope: "row", text: fmt(gettext("Deal %(deal)s"), { deal: index + 1 }) }),
    h("td", { text: formatNumber(deal[us] ? deal[us].total : 0) }), h("td", { text: formatNumber(deal[them] ? deal[them].total : 0) })));
  const totals = scores.totals || {};
  return h("table", { class: "scores" },
    h("caption", { text: gettext("Score") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: gettext("Us") }), h("th", { scope: "col", text: gettext("Them") }))),
    h("tbody", {}, ...rows),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: gettext("Total") }), h("td", { text: formatNumber(totals[us] || 0) }), h("td", { text: formatNumber(totals[them] || 0) }))));
}

export function renderStatus(view, ui) {
  const us = teamOf(ui.me || "S");
  const them = otherTeam(us);
  $("deal-info").textContent = fmt(gettext("Deal %(deal)s of 4"), { deal: view.deal });
  $("minimum-info").textContent = fmt(gettext("First meld: %(points)s points"), { points: view.first_meld_minimum });
  const down = (team) => (view.down && view.down[team]);
  fill($("status"),
    h("h2", { text: gettext("Your team") }),
    h("p", { class: `down ${down(us) ? "yes" : "no"}`, text: down(us) ? `✓ ${gettext("Your team is down")}` : `○ ${gettext("Your team is not down yet")}` }),
    checklist(view, us),
    h("p", { class: "them-down", text: down(them) ? gettext("The opponents are down") : gettext("The opponents are not down yet") }),
    scoreTable(view, us),
  );
}

/** The hand, without the staged cards: naturals by rank, then wild cards, then threes. */
export function handCards(view, stagedCodes) {
  return expandCounts(subtractCounts(view.hand || {}, stagedCodes));
}

/** The keys ("9C:2" = the second 9C) of a list of card codes, as the hand's buttons carry them. */
export function handKeys(cards) {
  const seen = {};
  return new Set(cards.map((code) => { seen[code] = (seen[code] || 0) + 1; return `${code}:${seen[code]}`; }));
}

export function renderHand(view, ui) {
  const hand = $("hand");
  const focusedKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const cards = handCards(view, ui.stagedCodes);
  const groups = { natural: [], wild: [], three: [] };
  const seen = {};
  for (const code of cards) {
    seen[code] = (seen[code] || 0) + 1;
    const key = `${code}:${seen[code]}`;
    const button = cardFace(code, "button");
    button.dataset.key = key;
    button.setAttribute("aria-pressed", ui.selected.has(key) ? "true" : "false");
    if (ui.hinted.has(code)) button.classList.add("hinted");
    button.addEventListener("click", () => ui.onCardClick(key));
    groups[handGroup(code)].push(button);
  }
  const titles = { natural: null, wild: gettext("Wild cards"), three: gettext("Threes") };
  const parts = Object.entries(groups).filter(([, buttons]) => buttons.length).map(([group, buttons]) =>
    h("div", { class: `hand-group group-${group}`, role: "group", "aria-label": titles[group] || gettext("Natural cards") },
      titles[group] ? h("span", { class: "group-title", "aria-hidden": "true", text: titles[group] }) : null,
      h("div", { class: "group-cards" }, ...buttons)));
  if (!cards.length) parts.push(h("p", { class: "empty-note", text: gettext("No cards in your hand") }));
  fill(hand, ...parts);
  if (focusedKey) {
    const again = hand.querySelector(`[data-key="${focusedKey}"]`);
    if (again) again.focus();
  }
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
  if (view.phase === "over" || view.winner) text = gettext("The game is over.");
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
  set("btn-draw", options.draw);
  set("btn-take", options.take_pile);
  set("btn-meld", options.meld && selected > 0);
  set("btn-aside", ui.isMyTurn && selected > 0 && view.phase !== "over", notDown && ui.isMyTurn);
  set("btn-laydown", options.meld && ui.staged.length > 0 && ui.stagingOk, notDown && ui.isMyTurn);
  set("btn-discard", options.discard && selected === 1);
  set("btn-hint", ui.isMyTurn, !ui.ranked && Boolean(ui.me));
}

