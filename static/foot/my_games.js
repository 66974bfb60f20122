/** The home page's own games (GET /api/games): the unfinished with Continue, then a short history. */
import { api } from "./net.js";
import { fmt, gettext } from "./i18n.js";
import { formatNumber, numberLocale, pageLanguage } from "./numbers.js";
import { $, h } from "./dom.js";

const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60]];

/** "2 hours ago" in the page's language (Bengali digits on a Bengali page); "just now" under a minute. */
export function timeAgo(iso, now = Date.now()) {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  const [unit, size] = UNITS.find(([, length]) => seconds >= length) || [null, 0];
  if (!unit) return gettext("just now");
  const locale = numberLocale(pageLanguage());
  try {
    return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-Math.floor(seconds / size), unit);
  } catch (error) {
    return new Date(iso).toLocaleString(locale); // no relative times in this browser: the date itself
  }
}

function modeName(game) {
  if (game.mode === "daily") return fmt(gettext("Daily game of %(date)s"), { date: game.daily_date || "" });
  if (game.mode === "friends") return gettext("Game with friends");
  if (game.mode === "lesson") return gettext("Learn to play");
  const level = { easy: gettext("Easy"), normal: gettext("Normal"), hard: gettext("Hard") }[game.level] || game.level;
  return fmt(gettext("Against the computer (%(level)s)"), { level });
}

function scores(game) {
  const us = (game.scores && game.scores[game.team]) || 0;
  const them = (game.scores && game.scores[game.team === "NS" ? "EW" : "NS"]) || 0;
  return { us, them };
}

function progress(game) {
  if (game.status === "lobby") return gettext("Waiting for the players to start");
  const { us, them } = scores(game);
  return fmt(gettext("Deal %(deal)s of %(deals)s · your team %(us)s, opponents %(them)s"), {
    deal: game.deal, deals: game.deals, us, them,
  });
}

function result(game) {
  const { us, them } = scores(game);
  const points = { us: formatNumber(us), them: formatNumber(them) };
  if (game.winner === "draw") return fmt(gettext("A draw, %(us)s to %(them)s"), points);
  if (game.winner === game.team) return fmt(gettext("Your team won %(us)s to %(them)s"), points);
  return fmt(gettext("The opponents won %(them)s to %(us)s"), points);
}

function row(game, finished) {
  const when = h("time", { datetime: game.updated, text: timeAgo(game.updated) });
  const about = h("div", { class: "game-about" },
    h("strong", { text: modeName(game) }),
    h("span", { text: finished ? result(game) : progress(game) }),
    when);
  const link = h("a", { class: finished ? "button-link quiet" : "button-link primary", href: game.url,
    text: finished ? gettext("Look at it") : gettext("Continue") });
  link.setAttribute("aria-label", `${link.textContent}: ${modeName(game)}, ${when.textContent}`);
  return h("li", { class: "game-row", "data-game": game.id, "data-status": game.status }, about, link);
}

function fillList(list, games, finished) {
  list.replaceChildren(...games.map((game) => row(game, finished)));
  list.closest("section").hidden = games.length === 0;
}

export async function showMyGames() {
  let games;
  try {
    games = (await api("/api/games")).games || [];
  } catch (error) {
    return; // the home page works without the list
  }
  fillList($("my-games-list"), games.filter((game) => game.status !== "finished"), false);
  fillList($("history-list"), games.filter((game) => game.status === "finished"), true);
}
