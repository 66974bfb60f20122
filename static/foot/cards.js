/**
 * Cards in the page: parsing the notation ("QH", "TS", "JK"), translated accessible names,
 * the hand's display order, and drawing a card as a DOM element (CSS only, no images).
 * It knows how cards look and are named, never what a rule allows.
 */
import { fmt, gettext } from "./i18n.js";

export const RANK_ORDER = "456789TJQKA23";
const SUIT_ORDER = "CDHS";
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_LABEL = { T: "10" };

export function parseCard(code) {
  if (code === "JK") return { code, rank: "JK", suit: "", joker: true, wild: true, three: false, red: false };
  const rank = code[0];
  const suit = code[1];
  return { code, rank, suit, joker: false, wild: rank === "2", three: rank === "3", red: suit === "H" || suit === "D" };
}

export function rankName(rank) {
  const names = {
    4: gettext("Four"), 5: gettext("Five"), 6: gettext("Six"), 7: gettext("Seven"), 8: gettext("Eight"),
    9: gettext("Nine"), T: gettext("Ten"), J: gettext("Jack"), Q: gettext("Queen"), K: gettext("King"),
    A: gettext("Ace"), 2: gettext("Two"), 3: gettext("Three"), JK: gettext("Joker"), wild: gettext("Wild cards"),
  };
  return names[rank] || rank;
}

/** The name of a meld's rank in the plural ("Queens"), for labels such as "add to the Queens". */
export function rankPlural(rank) {
  const names = {
    4: gettext("Fours"), 5: gettext("Fives"), 6: gettext("Sixes"), 7: gettext("Sevens"), 8: gettext("Eights"),
    9: gettext("Nines"), T: gettext("Tens"), J: gettext("Jacks"), Q: gettext("Queens"), K: gettext("Kings"),
    A: gettext("Aces"), wild: gettext("Wild cards"),
  };
  return names[rank] || rank;
}

/** "Queen of hearts", "Joker": the accessible name of a card, translated. */
export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) return gettext("Joker");
  const patterns = {
    C: gettext("%(rank)s of clubs"), D: gettext("%(rank)s of diamonds"),
    H: gettext("%(rank)s of hearts"), S: gettext("%(rank)s of spades"),
  };
  return fmt(patterns[card.suit], { rank: rankName(card.rank) });
}

/** A short visible label: "Q♥", "10♠", "Joker". */
export function cardShort(code) {
  const card = parseCard(code);
  if (card.joker) return gettext("Joker");
  return (RANK_LABEL[card.rank] || card.rank) + SUIT_SYMBOL[card.suit];
}

export const cardList = (cards) => (cards || []).map(cardShort).join(" ");

/** Display group of a card in the hand: naturals (by rank or by suit), then wild cards, then threes. */
export function handGroup(code, order = "rank") {
  const card = parseCard(code);
  if (card.wild) return "wild";
  if (card.three) return "three";
  return order === "suit" ? `suit-${card.suit}` : "natural";
}

function sortKey(code, order) {
  const card = parseCard(code);
  const group = card.wild ? 1 : card.three ? 2 : 0;
  const rank = card.joker ? 99 : RANK_ORDER.indexOf(card.rank);
  const suit = SUIT_ORDER.indexOf(card.suit);
  return order === "suit" ? [group, suit, rank] : [group, rank, suit];
}

/** The hand's display order: wild cards and threes apart, the naturals by rank or by suit. */
export function compareCards(a, b, order = "rank") {
  const ka = sortKey(a, order);
  const kb = sortKey(b, order);
  for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
  return 0;
}

/** {"4H": 2, "JK": 1} -> ["4H", "4H", "JK"], in display order. */
export function expandCounts(counts, order = "rank") {
  const list = [];
  for (const [code, count] of Object.entries(counts || {})) for (let i = 0; i < count; i += 1) list.push(code);
  return list.sort((a, b) => compareCards(a, b, order));
}

/** The count map less the given codes (never below zero). */
export function subtractCounts(counts, codes) {
  const left = { ...counts };
  for (const code of codes) if (left[code] > 0) left[code] -= 1;
  return left;
}

function part(className, text) {
  const span = document.createElement("span");
  span.className = className;
  span.setAttribute("aria-hidden", "true");
  span.textContent = text;
  return span;
}

/** The rank as printed in a card's corner: "10", "Q"; a joker's corner carries a star. */
export function cornerRank(code) {
  const card = parseCard(code);
  return card.joker ? "★" : (RANK_LABEL[card.rank] || card.rank);
}

/**
 * The face of a card, drawn with CSS and text (crisp at any size): an index corner (rank over
 * suit, the part that stays visible when cards overlap), a large suit in the middle, and for
 * wild cards a mark, so a 2 (a suit and "W") and a joker (a star and the word) differ at a glance.
 * The name is told to screen readers in words.
 */
export function cardFace(code, tag = "div") {
  const card = parseCard(code);
  const element = document.createElement(tag);
  element.className = `card face ${card.red ? "red" : "black"} suit-${card.suit || "J"}${card.joker ? " joker" : ""}${card.wild ? " wild" : ""}`;
  element.dataset.code = code;
  const corner = part("corner", "");
  corner.append(part("corner-rank", cornerRank(code)), part("corner-suit", card.joker ? "" : SUIT_SYMBOL[card.suit]));
  element.append(corner, part("pip", card.joker ? "★" : SUIT_SYMBOL[card.suit]));
  if (card.joker) element.append(part("joker-word", gettext("Joker")));
  else if (card.wild) element.append(part("wild-mark", "W"));
  if (tag === "button") element.type = "button";
  else element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardName(code));
  return element;
}

export function cardBack(label) {
  const element = document.createElement("div");
  element.className = "card back";
  if (label) {
    element.setAttribute("role", "img");
    element.setAttribute("aria-label", label);
  } else element.setAttribute("aria-hidden", "true");
  return element;
}
