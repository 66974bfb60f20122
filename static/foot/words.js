/**
 * The table's sentences: seat names and the log line of each event.
 * Translated through the JavaScript catalogue; the event shapes are those of docs/VIEW.md.
 */
import { cardShort, rankPlural } from "./cards.js";
import { fmt, gettext, ngettext } from "./i18n.js";

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

const cardList = (cards) => (cards || []).map(cardShort).join(" ");

/** "5♥ 5♣ 5♠, 9♦ 9♠ onto the Nines": new melds by their cards, additions with the meld they went to. */
function meldParts(event, before) {
  const team = event.team || teamOf(event.seat);
  const melds = (before && before.melds && before.melds[team]) || {};
  return event.groups.map((group) => {
    const existing = group.meld !== undefined ? melds[group.meld] : null;
    if (!existing) return cardList(group.cards);
    return fmt(gettext("%(cards)s onto the %(rank)s"), { cards: cardList(group.cards), rank: rankPlural(existing.rank) });
  }).join(", ");
}

function ownLine(event, before) {
  switch (event.type) {
    case "draw": return event.cards && event.cards.length
      ? fmt(gettext("You drew %(cards)s."), { cards: cardList(event.cards) })
      : fmt(ngettext("You drew %(count)s card.", "You drew %(count)s cards.", event.count), { count: event.count });
    case "take_pile": return fmt(ngettext("You took the pile (%(count)s card).", "You took the pile (%(count)s cards).", event.count), { count: event.count });
    case "meld": return fmt(gettext("You melded %(cards)s."), { cards: meldParts(event, before) });
    case "discard": return fmt(gettext("You discarded %(card)s."), { card: cardShort(event.card) });
    case "red_three": return fmt(gettext("You laid a red three (%(card)s)."), { card: cardShort(event.card) });
    case "foot": return gettext("You picked up your foot.");
    case "go_out": return gettext("You went out!");
    default: return null;
  }
}

function otherLine(event, name, before) {
  switch (event.type) {
    case "draw": return fmt(ngettext("%(name)s drew %(count)s card.", "%(name)s drew %(count)s cards.", event.count), { name, count: event.count });
    case "take_pile": return fmt(ngettext("%(name)s took the pile (%(count)s card).", "%(name)s took the pile (%(count)s cards).", event.count), { name, count: event.count });
    case "meld": return fmt(gettext("%(name)s melded %(cards)s."), { name, cards: meldParts(event, before) });
    case "discard": return fmt(gettext("%(name)s discarded %(card)s."), { name, card: cardShort(event.card) });
    case "red_three": return fmt(gettext("%(name)s laid a red three (%(card)s)."), { name, card: cardShort(event.card) });
    case "foot": return fmt(gettext("%(name)s picked up the foot."), { name });
    case "go_out": return fmt(gettext("%(name)s went out!"), { name });
    default: return null;
  }
}

/** One log line for an event (`before`: the view it was applied to), or null for events that need none. */
export function eventLine(event, me, players, before) {
  if (event.type === "deal_end") {
    const reason = event.reason === "stock" ? gettext("the stock ran out") : gettext("a player went out");
    return fmt(gettext("Deal %(deal)s is over: %(reason)s."), { deal: event.deal, reason });
  }
  if (event.type === "deal_start") return fmt(gettext("Deal %(deal)s begins."), { deal: event.deal });
  if (event.type === "game_over") return gettext("The game is over.");
  if (event.type === "turn") return null;
  if (event.seat === me) return ownLine(event, before);
  return otherLine(event, seatName(event.seat, me, players), before);
}
