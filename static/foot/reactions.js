/**
 * Reactions, not chat: a row of fixed reactions ("Nice!", "Oops", …) for a seated player at a
 * table with another person, sent as a code; a reaction that arrives is shown at its seat for a
 * few seconds. The words are this page's own, so no text a player typed is ever shown. How often
 * a seat may react is the server's to say (its refusal is shown like any other).
 */
import { fmt, gettext } from "./i18n.js";
import { h } from "./render.js";

export const REACTIONS = ["nice", "oops", "well_played", "thanks_partner", "good_game"];
const SHOWN_MS = 4000;

export function reactionWords(code) {
  return {
    nice: gettext("Nice!"), oops: gettext("Oops"), well_played: gettext("Well played"),
    thanks_partner: gettext("Thanks, partner"), good_game: gettext("Good game"),
  }[code] || null;
}

/** The row of reaction buttons, placed after `anchor` and hidden until `showBar` says otherwise. */
export function reactionBar(anchor, send) {
  const bar = h("div", { class: "reactions", id: "reactions", role: "group", "aria-label": gettext("Reactions"), hidden: true },
    ...REACTIONS.map((code) => h("button", {
      type: "button", class: "small quiet", "data-reaction": code, text: reactionWords(code), onclick: () => send(code),
    })));
  anchor.after(bar);
  return bar;
}

/** Reactions are for a seated player with another person at the table (`players`: {seat: {kind}}). */
export function showBar(bar, me, players) {
  const people = Object.values(players || {}).filter((player) => player && (player.kind === "human" || player.kind === "you"));
  bar.hidden = !me || people.length < 2;
}

/** `who`'s reaction `code` next to `place` (the seat's element) for a few seconds; an unknown code shows nothing. */
export function showReaction(place, seat, who, code) {
  const words = reactionWords(code);
  if (!words || !place) return;
  document.querySelectorAll(`.reaction-bubble[data-seat="${seat}"]`).forEach((old) => old.remove());
  const bubble = h("p", { class: "reaction-bubble", role: "status", "data-seat": seat, text: fmt(gettext("%(name)s: %(reaction)s"), { name: who, reaction: words }) });
  document.body.append(bubble);
  const spot = place.getBoundingClientRect();
  // Through the CSSOM (the Content-Security-Policy refuses style attributes): on the seat's edge that
  // faces the middle of the table, so the seat's name and cards stay readable.
  const towardsMiddle = spot.top + spot.height / 2 > window.innerHeight / 2 ? spot.top : spot.bottom;
  bubble.style.left = `${Math.max(8, spot.left + window.scrollX + spot.width / 2 - bubble.offsetWidth / 2)}px`;
  bubble.style.top = `${Math.max(8, towardsMiddle + window.scrollY - bubble.offsetHeight / 2)}px`;
  setTimeout(() => bubble.remove(), SHOWN_MS);
}
