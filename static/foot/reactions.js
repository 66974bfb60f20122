/**
 * Reactions, not chat: fixed reactions sent as a code (the words are the page's own), shown at the
 * seat for a few seconds. How often a seat may react is the server's to say.
 */
import { fmt, gettext } from "./i18n.js";
import { h } from "./dom.js";

export const REACTIONS = ["nice", "oops", "well_played", "thanks_partner", "good_game"];
const SHOWN_MS = 4000;

export function reactionWords(code) {
  return {
    nice: gettext("Nice!"), oops: gettext("Oops"), well_played: gettext("Well played"),
    thanks_partner: gettext("Thanks, partner"), good_game: gettext("Good game"),
  }[code] || null;
}

export function reactionBar(anchor, send) {
  const bar = h("div", { class: "reactions", id: "reactions", role: "group", "aria-label": gettext("Reactions"), hidden: true },
    ...REACTIONS.map((code) => h("button", {
      type: "button", class: "small quiet", "data-reaction": code, text: reactionWords(code), onclick: () => send(code),
    })));
  anchor.after(bar);
  return bar;
}

/** For a seated player with another person at the table. */
export function showBar(bar, me, players) {
  const people = Object.values(players || {}).filter((player) => player && (player.kind === "human" || player.kind === "you"));
  bar.hidden = !me || people.length < 2;
}

export function showReaction(place, seat, who, code) {
  const words = reactionWords(code);
  if (!words || !place) return;
  document.querySelectorAll(`.reaction-bubble[data-seat="${seat}"]`).forEach((old) => old.remove());
  const bubble = h("p", { class: "reaction-bubble", role: "status", "data-seat": seat, text: fmt(gettext("%(name)s: %(reaction)s"), { name: who, reaction: words }) });
  document.body.append(bubble);
  const spot = place.getBoundingClientRect();
  // On the seat's edge towards the middle, so its name stays readable (CSSOM: the CSP refuses style attributes).
  const towardsMiddle = spot.top + spot.height / 2 > window.innerHeight / 2 ? spot.top : spot.bottom;
  bubble.style.left = `${Math.max(8, spot.left + window.scrollX + spot.width / 2 - bubble.offsetWidth / 2)}px`;
  bubble.style.top = `${Math.max(8, towardsMiddle + window.scrollY - bubble.offsetHeight / 2)}px`;
  setTimeout(() => bubble.remove(), SHOWN_MS);
}
