/**
 * The hint you can play and the pile take the server finds: both are an offer of actions the
 * server worked out (the hint's `step`, docs/PROTOCOL.md; the `take_choice` answer). This module
 * words an offer in the page's language, says which cards and button it uses, and shows the
 * offer's buttons. Carrying it out is table.js's: it sends the offer's actions one after another,
 * each as the player's own action would be sent. No rule is decided here: the parts come from
 * the server and are only put into words.
 */
import { cardList, cardShort, rankPlural } from "./cards.js";
import { fmt, gettext } from "./i18n.js";
import { $ } from "./dom.js";


/** "7♠ 7♦ 7♣ and K♠ K♥ K♦ K♣": several groups of cards set aside together. */
function groupList(groups) {
  const lists = groups.map(cardList);
  if (lists.length < 2) return lists[0] || "";
  return fmt(gettext("%(groups)s and %(last)s"), { groups: lists.slice(0, -1).join(", "), last: lists[lists.length - 1] });
}

function partLine(part) {
  switch (part.do) {
    case "draw": return gettext("Draw 2 cards");
    case "set_aside": return fmt(gettext("Set aside %(cards)s"), { cards: groupList(part.groups || [part.cards]) });
    case "lay_down": return fmt(gettext("Lay down: %(points)s points"), { points: part.points });
    case "take_pile": return part.points
      ? fmt(gettext("Take the pile with %(cards)s: %(points)s points"), { cards: cardList(part.cards), points: part.points })
      : fmt(gettext("Take the pile with %(cards)s"), { cards: cardList(part.cards) });
    case "add": return fmt(gettext("Add %(cards)s to your %(rank)s"), { cards: cardList(part.cards), rank: rankPlural(part.to) });
    case "meld": return part.points
      ? fmt(gettext("Meld %(cards)s: %(points)s points"), { cards: cardList(part.cards), points: part.points })
      : fmt(gettext("Meld %(cards)s"), { cards: cardList(part.cards) });
    case "discard": return fmt(gettext("Discard %(card)s"), { card: cardShort(part.card) });
    case "foot": return gettext("You pick up your foot");
    case "go_out": return gettext("You go out");
    default: return "";
  }
}

/** The groups set aside one after another are said once: "Set aside A and B". */
function joinedParts(parts) {
  const joined = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (part.do === "set_aside" && last && last.do === "set_aside") last.groups.push(part.cards);
    else joined.push(part.do === "set_aside" ? { do: "set_aside", groups: [part.cards] } : part);
  }
  return joined;
}

/** "Set aside 7♠ 7♦ 7♣ and K♠ K♥ K♦ K♣, then Lay down: 95 points" */
export function stepWords(parts) {
  const lines = joinedParts(parts || []).map(partLine).filter(Boolean);
  return lines.reduce((text, line) => fmt(gettext("%(step)s, then %(next)s"), { step: text, next: line }));
}

/** The line the hint shows: "Hint: …. Press Play the hint to do it." */
export function hintWords(step) {
  if (!step || !step.parts || !step.parts.length) return gettext("No hint right now.");
  return fmt(gettext("Hint: %(moves)s."), { moves: stepWords(step.parts) });
}

/** The parts of a take the server chose: its groups set aside, then the take (with its points). */
export function takeParts(action, points, down) {
  const groups = (action.groups || []).map((group) => ({ do: "set_aside", cards: group.cards }));
  return [...groups, { do: "take_pile", cards: action.cards, points: down ? null : points }];
}

/** "Take the pile with 9♥ 9♣? …": the offer made when Take pile is pressed with nothing selected. */
export function takeWords(action, points, down) {
  return fmt(gettext("Take the pile like this? %(moves)s"), { moves: stepWords(takeParts(action, points, down)) });
}

/** Every card of the player's the offer uses, to light them in the hand. */
export function offerCards(actions) {
  const cards = [];
  for (const action of actions || []) {
    if (action.card) cards.push(action.card);
    cards.push(...(action.cards || []));
    for (const group of action.groups || []) cards.push(...group.cards);
  }
  return cards;
}

/** The button a person would press for the offer's first action. */
export function offerButton(actions) {
  const first = (actions || [])[0];
  if (!first) return null;
  if (first.type === "meld" && first.groups.length > 1) return "btn-laydown";
  return { draw: "btn-draw", take_pile: "btn-take", meld: "btn-meld", discard: "btn-discard" }[first.type] || null;
}

/** Shows the offer's buttons ("Play the hint" or "Yes, take the pile", and "Cancel") while it stands. */
export function renderOffer(offer, ui) {
  const shown = Boolean(offer && ui.isMyTurn && !ui.busy);
  const play = $("btn-offer");
  play.hidden = !shown;
  $("btn-offer-cancel").hidden = !shown;
  if (shown) play.textContent = offer.kind === "take" ? gettext("Yes, take the pile") : gettext("Play the hint");
}
