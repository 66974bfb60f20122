/**
 * The table's words for seats and teams (seat names, directions, team names) and the log's line
 * of a deal's events.
 * Translated through the JavaScript catalogue; the event shapes are those of docs/VIEW.md.
 */
import { fmt, gettext } from "./i18n.js";
import { formatNumber } from "./numbers.js";

export const CLOCKWISE = ["S", "W", "N", "E"];

export function teamOf(seat) {
  return seat === "N" || seat === "S" ? "NS" : "EW";
}

export function otherTeam(team) {
  return team === "NS" ? "EW" : "NS";
}

export function directionName(seat) {
  return { S: gettext("South"), W: gettext("West"), N: gettext("North"), E: gettext("East") }[seat] || seat;
}

/**
 * What the table calls a seat: "You", "Alice (North, partner)", "Friend (East)" for a person with
 * no nickname, "West (computer)". `players[seat]` is {kind: "you"|"human"|"bot"|"empty", name}
 * as the server's state and presence messages say it (table.js); the name is plain text.
 */
export function seatName(seat, me, players) {
  if (seat === me) return gettext("You");
  const player = players && players[seat];
  const kind = player && typeof player === "object" ? player.kind : player;
  const direction = directionName(seat);
  const partner = Boolean(me) && teamOf(seat) === teamOf(me);
  if (kind === "human" || kind === "you") {
    const name = (player && player.name) || gettext("Friend");
    return fmt(partner ? gettext("%(name)s (%(direction)s, partner)") : gettext("%(name)s (%(direction)s)"), { name, direction });
  }
  if (kind === "bot") return fmt(partner ? gettext("%(direction)s (computer partner)") : gettext("%(direction)s (computer)"), { direction });
  if (partner) return fmt(gettext("%(direction)s (partner)"), { direction });
  return direction;
}

/** "North–South" or "East–West": a team named by its seats, for someone who sits at neither. */
export function teamName(team) {
  return team === "NS" ? gettext("North–South") : gettext("East–West");
}

/** The log's line of a deal's event (its end with the deal's score, a new deal, the game's end),
 * or null for any other event: the moves' lines are log.js's, one sentence per move. `me`: the
 * reader's seat (null: someone watching, who reads the teams by their seats). */
export function dealLine(event, me = null) {
  if (event.type === "deal_end") {
    const reason = event.reason === "stock" ? gettext("the stock ran out") : gettext("a player went out");
    const over = fmt(gettext("Deal %(deal)s is over: %(reason)s."), { deal: event.deal, reason });
    const score = dealScore(event.score, me);
    return score ? `${over} ${score}` : over;
  }
  if (event.type === "deal_start") return fmt(gettext("Deal %(deal)s begins."), { deal: event.deal });
  if (event.type === "game_over") return gettext("The game is over.");
  return null;
}

/** "Your team 1240, the opponents 860." (R51–R53: the deal's own points), or by seats for a watcher. */
function dealScore(score, me) {
  const total = (team) => score && score[team] && score[team].total;
  if (typeof total("NS") !== "number" || typeof total("EW") !== "number") return null;
  if (!me) return fmt(gettext("North–South %(ns)s, East–West %(ew)s."), { ns: formatNumber(total("NS")), ew: formatNumber(total("EW")) });
  const us = teamOf(me);
  return fmt(gettext("Your team %(us)s, the opponents %(them)s."), { us: formatNumber(total(us)), them: formatNumber(total(otherTeam(us))) });
}
