/**
 * What the table says about a daily and the leaderboard: until when a ranked daily counts (the
 * state's `ranked_until`, in UTC and, where it differs, in the player's own time), and that it
 * no longer counts once the server says it `lapsed` (played past its date's deadline). The server
 * decides both (games.rooms.daily_play); this only words them. docs/LEADERBOARDS.md: why.
 */
import { fmt, gettext } from "./i18n.js";
import { formatClock } from "./numbers.js";

/** "This daily counts until 00:10 UTC (01:10 your time)", from an ISO moment. */
export function countsUntilLine(rankedUntil) {
  const moment = new Date(rankedUntil);
  if (Number.isNaN(moment.getTime())) return gettext("Ranked daily game");
  const time = formatClock(moment, { utc: true });
  if (moment.getTimezoneOffset() === 0) return fmt(gettext("This daily counts until %(time)s UTC"), { time });
  return fmt(gettext("This daily counts until %(time)s UTC (%(local)s your time)"), { time, local: formatClock(moment) });
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
