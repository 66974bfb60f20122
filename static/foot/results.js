/**
 * The end of a deal (the itemised score and "Next deal") and the end of the game (the winner,
 * and for a daily game the rank and a text to share, when the leaderboard can tell them).
 */
import { api } from "./net.js";
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./render.js";
import { otherTeam } from "./words.js";

const $ = (id) => document.getElementById(id);

const LINES = [
  ["melded", () => gettext("Cards melded")],
  ["piles", () => gettext("Piles")],
  ["red_threes", () => gettext("Red threes")],
  ["cards_left", () => gettext("Cards left in hand and foot")],
  ["going_out", () => gettext("Going out")],
];

export function breakdownTable(score, us, totals) {
  const them = otherTeam(us);
  const cell = (team, key) => h("td", { text: String((score && score[team] && score[team][key]) || 0) });
  return h("table", { class: "breakdown" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }),
      h("th", { scope: "col", text: gettext("Your team") }), h("th", { scope: "col", text: gettext("Opponents") }))),
    h("tbody", {}, ...LINES.map(([key, label]) => h("tr", {}, h("th", { scope: "row", text: label() }), cell(us, key), cell(them, key))),
      h("tr", { class: "deal-total" }, h("th", { scope: "row", text: gettext("Deal total") }), cell(us, "total"), cell(them, "total"))),
    totals ? h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: gettext("Game total") }),
      h("td", { text: String(totals[us] || 0) }), h("td", { text: String(totals[them] || 0) }))) : null);
}

function open(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

export function showDealEnd(view, us, deal, score) {
  $("deal-end-title").textContent = fmt(gettext("Deal %(deal)s is over"), { deal });
  const totals = view && view.scores ? view.scores.totals : null;
  fill($("deal-end-body"), breakdownTable(score, us, totals));
  open($("deal-end"));
  $("btn-next-deal").focus();
}

function winnerText(view, us) {
  if (view.winner === "draw") return gettext("A draw!");
  if (view.winner === us) return gettext("Your team wins!");
  return gettext("The opponents win.");
}

function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

/** The player's line on the daily leaderboard, whatever shape the answer has. */
function findOwnEntry(board, gameId) {
  if (!board) return null;
  if (board.me || board.you || board.player) return board.me || board.you || board.player;
  const rows = board.entries || board.results || board.rows || [];
  return rows.find((row) => row.is_me || row.me || String(row.game_id || row.game) === String(gameId)) || null;
}

async function showDailyRank(view, us, context) {
  const date = context.date || todayUtc();
  const total = (view.scores && view.scores.totals && view.scores.totals[us]) || 0;
  let shareText = fmt(gettext("Foot Canasta daily %(date)s: %(points)s points"), { date, points: total });
  try {
    const board = await api(`/api/leaderboard/daily/${date}`);
    const entry = findOwnEntry(board, context.gameId);
    if (entry && entry.rank) {
      $("game-over-body").append(h("p", { class: "rank", text: fmt(gettext("Your rank today: %(rank)s"), { rank: entry.rank }) }));
    }
    shareText = (entry && (entry.share_text || entry.share)) || board.share_text || board.share || shareText;
  } catch (error) {
    // No leaderboard yet: the share text still tells the score.
  }
  $("share-text").value = `${shareText}\n${window.location.origin}/`;
  $("share").hidden = false;
}

export function showGameOver(view, us, context) {
  $("game-over-title").textContent = winnerText(view, us);
  const deals = (view.scores && view.scores.deals) || [];
  const last = deals[deals.length - 1];
  fill($("game-over-body"), 
    last ? h("p", { text: fmt(gettext("Deal %(deal)s"), { deal: deals.length }) }) : null,
    last ? breakdownTable(last, us, view.scores.totals) : null,
  );
  $("share").hidden = true;
  open($("game-over"));
  if (context.mode === "daily") showDailyRank(view, us, context);
  $("btn-copy-share").onclick = async () => {
    try { await navigator.clipboard.writeText($("share-text").value); } catch (error) { $("share-text").select(); }
  };
}
