/**
 * The end of a deal (the itemised score, "Look back" and "Next deal") and the end of the game (the
 * winner, and for a ranked daily its result on the board, daily_end.js, and a text to share).
 */
import { stepWords } from "./hint.js";
import { formatNumber } from "./numbers.js";
import { fmt, gettext } from "./i18n.js";
import { $, fill, h } from "./dom.js";
import { otherTeam } from "./words.js";


const LINES = [
  ["melded", () => gettext("Cards melded")],
  ["piles", () => gettext("Piles")],
  ["red_threes", () => gettext("Red threes")],
  ["cards_left", () => gettext("Cards left in hand and foot")],
  ["going_out", () => gettext("Going out")],
];

/**
 * `teams` says how the page names the two teams: {title: {NS, EW}, members: {NS, EW}} — "Your
 * team" and "Opponents" at a seat, "North–South" and "East–West" for someone watching, with the
 * players' names under each (table.js); without it, the seat's words alone.
 */
function teamHeader(team, fallback, teams) {
  const title = (teams && teams.title && teams.title[team]) || fallback;
  const members = teams && teams.members && teams.members[team];
  return h("th", { scope: "col", class: "team-head" }, title, members ? h("span", { class: "team-members", text: members }) : null);
}

export function breakdownTable(score, us, totals, teams) {
  const them = otherTeam(us);
  const cell = (team, key) => h("td", { text: formatNumber((score && score[team] && score[team][key]) || 0) });
  return h("table", { class: "breakdown" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }),
      teamHeader(us, gettext("Your team"), teams), teamHeader(them, gettext("Opponents"), teams))),
    h("tbody", {}, ...LINES.map(([key, label]) => h("tr", {}, h("th", { scope: "row", text: label() }), cell(us, key), cell(them, key))),
      h("tr", { class: "deal-total" }, h("th", { scope: "row", text: gettext("Deal total") }), cell(us, "total"), cell(them, "total"))),
    totals ? h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: gettext("Game total") }),
      h("td", { text: formatNumber(totals[us] || 0) }), h("td", { text: formatNumber(totals[them] || 0) }))) : null);
}

function open(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  dialog.scrollTop = 0; // its title first, not its focused button
}

/**
 * A modal dialog focuses its first focusable element, here the share box or Play again at its
 * end: a dialog taller than the screen (a phone, a laptop's 720 px) then opened scrolled to its
 * bottom, the winner, the score and the nickname form out of sight. The title takes the focus
 * instead (a screen reader starts there too); open() shows the dialog's top.
 */
function showFromTheTop(title) {
  title.tabIndex = -1;
  title.focus({ preventScroll: true });
}

/**
 * An item's sentence, by where the server says the hint stood: the move played was the hint (a
 * deeper look than the hint's found better), the better move is the hint's, or neither.
 */
function itemSentence(hint) {
  if (hint === "played") return gettext("You: %(played)s, as the hint suggested. A deeper look found: %(better)s, worth about +%(points)s points.");
  if (hint === "better") return gettext("You: %(played)s. The hint suggested: %(better)s, worth about +%(points)s points.");
  return gettext("You: %(played)s. The hard computer's search preferred: %(better)s, worth about +%(points)s points.");
}

/**
 * "Look back" (a seated player's): asks the server with `ask(deal, answer)` and says its answer —
 * the decisions of the deal where the search would have played otherwise, each in the hint's
 * words (docs/PROTOCOL.md, `look_back`), the search's agreement, or why it was refused.
 */
function lookBack(deal, ask) {
  if (!ask) return null;
  const out = h("div", { class: "look-back", "aria-live": "polite" });
  const say = (text) => fill(out, h("p", { text }));
  const said = (answer) => {
    // A refusal may be for now only ("press Look back again in a minute"): the button comes back.
    if (answer.type === "error") { button.disabled = false; return say(answer.message); }
    if (!answer.items.length) return say(gettext("Nothing to look back on: the search agreed with you."));
    return fill(out, h("ul", {}, answer.items.map((item) => h("li", { text: fmt(itemSentence(item.hint),
      { played: stepWords(item.played_parts), better: stepWords(item.better_parts), points: formatNumber(item.points) }) }))));
  };
  const button = h("button", { type: "button", id: "btn-look-back", class: "quiet", text: gettext("Look back"),
    onclick: () => { button.disabled = true; say(gettext("Thinking…")); ask(deal, said); } });
  return h("div", {}, button, out);
}

export function showDealEnd(view, us, deal, score, teams, ask) {
  $("deal-end-title").textContent = fmt(gettext("Deal %(deal)s is over"), { deal });
  const totals = view && view.scores ? view.scores.totals : null;
  fill($("deal-end-body"), breakdownTable(score, us, totals, teams), lookBack(deal, ask));
  open($("deal-end"));
  $("btn-next-deal").focus({ preventScroll: true });
}

function winnerText(view, us, teams) {
  if (view.winner === "draw") return gettext("A draw!");
  if (teams && teams.watching) return fmt(gettext("%(team)s wins!"), { team: teams.title[view.winner] || view.winner });
  if (view.winner === us) return gettext("Your team wins!");
  return gettext("The opponents win.");
}

function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

/** A ranked daily: the score, par, rank or nickname form (daily_end.js), and the share text. */
async function showDailyResult(view, us, context) {
  const total = (view.scores && view.scores.totals && view.scores.totals[us]) || 0;
  const box = h("section", { class: "daily-end", "aria-live": "polite" });
  // First, what the player came for; with the share text beside the deal's score on a laptop.
  const side = h("div", { class: "daily-side" }, box);
  $("game-over-body").prepend(side);
  const share = (text) => { $("share-text").value = `${text}\n${window.location.origin}/`; };
  const { showDailyEnd } = await import("./daily_end.js"); // fetched only for a daily's end
  const shown = await showDailyEnd(box, context.gameId, share);
  if (!shown) share(fmt(gettext("Foot Canasta daily %(date)s: %(points)s points"), { date: context.date || todayUtc(), points: total }));
  side.append($("share"));
  $("share").hidden = false;
}

/** A solo or friends game can be watched again at once (a daily only once its day is over). */
function offerReplay(context) {
  if (context.mode === "daily" || !context.gameId || $("replay-link")) return;
  const link = h("a", { id: "replay-link", class: "button-link", href: `/replay/${context.gameId}/`, text: gettext("Watch the replay") });
  $("btn-play-again").after(link); // Play again stays first: the dialog's main button
}

export function showGameOver(view, us, context) {
  $("game-over-title").textContent = winnerText(view, us, context.teams);
  const deals = (view.scores && view.scores.deals) || [];
  const last = deals[deals.length - 1];
  $("game-over-body").after($("share")); // back in its place, if a daily's end had moved it
  fill($("game-over-body"),
    last ? h("p", { text: fmt(gettext("Deal %(deal)s"), { deal: deals.length }) }) : null,
    last ? breakdownTable(last, us, view.scores.totals, context.teams) : null,
    last ? lookBack(deals.length, context.ask) : null,
  );
  $("share").hidden = true;
  offerReplay(context);
  open($("game-over"));
  showFromTheTop($("game-over-title"));
  if (context.mode === "daily" && context.ranked) showDailyResult(view, us, context);
  $("btn-copy-share").onclick = async () => {
    try { await navigator.clipboard.writeText($("share-text").value); } catch (error) { $("share-text").select(); }
  };
}
