/**
 * The end of a ranked daily in the game-over dialog: the score, the par when the server knows it,
 * and where the player stands (GET /api/daily/result/<game>). A rank is shown only when the
 * player is on the board; a player without a nickname gets the nickname form right there (the
 * server's POST /api/nickname decides and its refusals are shown), after which the rank and the
 * board link appear; a banned player is told that their results are hidden.
 */
import { api } from "./net.js";
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./dom.js";

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The result of the game (the entry is written just after the last move: retry briefly). */
async function fetchResult(gameId) {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    try {
      return await api(`/api/daily/result/${gameId}`);
    } catch (error) {
      if (error.status !== 404) return null;
      await pause(1000);
    }
  }
  return null;
}

/** "1240 points above the computers' par", "310 points below the computers' par", "Level with the computers' par". */
export function againstParText(difference) {
  if (difference > 0) return fmt(gettext("%(points)s points above the computers' par"), { points: difference });
  if (difference < 0) return fmt(gettext("%(points)s points below the computers' par"), { points: -difference });
  return gettext("Level with the computers' par");
}

/**
 * The score, and under it the par with the score against it. The numbers are written as the rest
 * of the page writes them (numbers.js: no grouping, the page's digits), so the page's own words
 * are used rather than the server's `against_par_text` (grouped: "+1,240"), which is for sharing.
 */
function scoreLines(result) {
  const lines = [h("p", { class: "daily-score", text: fmt(gettext("Your score: %(points)s"), { points: result.score }) })];
  if (result.par !== null && result.par !== undefined) {
    const par = fmt(gettext("Par: %(points)s"), { points: result.par });
    lines.push(h("p", { class: "daily-par", text: `${par} · ${againstParText(result.against_par)}` }));
  }
  return lines;
}

function rankPart(result) {
  return [
    h("p", { class: "rank", text: fmt(gettext("Your rank today: %(rank)s"), { rank: result.rank }) }),
    h("p", {}, h("a", { href: result.board, class: "board-link", text: gettext("See today's board") })),
  ];
}

function nicknameForm(onNamed) {
  const input = h("input", { id: "daily-nickname", name: "nickname", maxlength: "100", required: true, autocomplete: "nickname" });
  const problem = h("p", { class: "nickname-error", role: "alert" });
  const button = h("button", { type: "submit", text: gettext("Save") });
  const form = h("form", { class: "daily-nickname" },
    h("label", { for: "daily-nickname", text: gettext("Choose a nickname to appear on today's board") }),
    h("div", { class: "copy-row" }, input, button),
    problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    problem.textContent = "";
    try {
      await api("/api/nickname", { nickname: input.value });
      onNamed();
    } catch (error) {
      problem.textContent = error.message;
      button.disabled = false;
      input.focus();
    }
  });
  return [h("p", { class: "unnamed", text: gettext("You are not on the board yet: it shows players by their nickname.") }), form];
}

function standingPart(box, result, gameId, onText) {
  if (result.standing === "listed") return rankPart(result);
  if (result.standing === "hidden") return [h("p", { class: "hidden-note", text: gettext("Your results are hidden from the boards.") })];
  return nicknameForm(async () => {
    const again = await fetchResult(gameId);
    if (again) draw(box, again, gameId, onText);
    const link = box.querySelector(".board-link");
    if (link) link.focus();
  });
}

function draw(box, result, gameId, onText) {
  fill(box, ...scoreLines(result), ...standingPart(box, result, gameId, onText));
  onText(result.text); // once named, the share text tells the rank too
}

/**
 * Fills `box` (in the game-over dialog) with the daily's end; `onText` gets the share text the
 * server made, each time it changes. Returns false when the result is not (yet) there.
 */
export async function showDailyEnd(box, gameId, onText) {
  const result = await fetchResult(gameId);
  if (!result) return false;
  draw(box, result, gameId, onText);
  return true;
}
