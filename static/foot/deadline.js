/**
 * What the table says about a daily and the leaderboard: until when a ranked daily counts (the
 * state's `ranked_until`), said in the player's own time with its day and how long is left
 * ("until tomorrow 01:10, in 24 hours": a bare "00:10 UTC" read as today when it meant
 * tomorrow), and that it no longer counts once the server says it `lapsed` (played past its
 * date's deadline). The server decides both (games.rooms.daily_play); this only words them.
 * docs/LEADERBOARDS.md: why.
 */
import { fmt, gettext } from "./i18n.js";
import { formatClock, formatDay, relativeTime } from "./numbers.js";

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** "today", "tomorrow" or "Mon 8 Dec": the moment's day in the browser's own zone, against `now`'s. */
function dayWord(moment, now) {
  const midnight = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.round((midnight(moment) - midnight(now)) / DAY);
  return days === 0 || days === 1 ? relativeTime(days, "day") : formatDay(moment);
}

/** "in 24 hours" or, under an hour, "in 35 minutes". */
function timeLeft(moment, now) {
  const left = Math.max(0, moment.getTime() - now.getTime());
  if (left >= HOUR) return relativeTime(Math.round(left / HOUR), "hour");
  return relativeTime(Math.max(1, Math.round(left / 60000)), "minute");
}

/** "This daily counts until tomorrow 01:10, in 24 hours", from an ISO moment. */
export function countsUntilLine(rankedUntil, now = new Date()) {
  const moment = new Date(rankedUntil);
  if (Number.isNaN(moment.getTime())) return gettext("Ranked daily game");
  return fmt(gettext("This daily counts until %(day)s %(time)s, %(left)s"), {
    day: dayWord(moment, now),
    time: formatClock(moment),
    left: timeLeft(moment, now),
  });
}

export function lapsedLine() {
  return gettext("Played past the daily's deadline: this game no longer counts for the leaderboard");
}

/** The table's line about a game's mode: empty unless it is a daily. */
export function modeLine({ mode, ranked, rankedUntil, lapsed }) {
  if (mode !== "daily") return "";
  if (lapsed) return lapsedLine();
  if (ranked) return rankedUntil ? countsUntilLine(rankedUntil) : gettext("Ranked daily game");
  return gettext("Practice: this daily game does not count for the leaderboard");
}
