/**
 * Play again, the game-over dialog's main button: a new game with the same settings. A friends
 * game asks the server for the next lobby and goes there (the server's `play_again` offer of a
 * lobby another player opened shows in the dialog); a solo game starts a new one at the same
 * computer level and rules; a daily starts today's (a practice try once it was played); the
 * lesson's end starts a real game. Someone who only watched goes home (the link's own address).
 */
import { api } from "./net.js";
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./dom.js";

function box() {
  let offer = document.getElementById("again-offer");
  if (!offer) {
    offer = h("div", { id: "again-offer", class: "again-offer", role: "status" });
    document.querySelector("#game-over .result-links").before(offer);
  }
  return offer;
}

async function go(button, request) {
  button.disabled = true;
  try {
    window.location.assign((await request()).url);
  } catch (error) {
    box().append(h("p", { class: "again-error", role: "alert", text: error.message }));
    button.disabled = false;
  }
}

/** The body of POST /api/games for a game like this one (`game`: {mode, level, rules}). */
export function sameSettings(game) {
  if (game.mode === "solo") return { mode: "solo", level: game.level || "normal", ...(game.rules ? { rules: game.rules } : {}) };
  if (game.mode === "daily") return { mode: "daily" };
  return { mode: "solo", level: "normal" }; // the lesson's end: a real game
}

/** `game()`: {mode, level, rules, seated}, read when the button is pressed. */
export function wirePlayAgain(link, gameId, game) {
  link.addEventListener("click", (event) => {
    const now = game();
    if (!now.seated) return; // a spectator: the link's home page
    event.preventDefault();
    if (now.mode === "friends") go(link, () => api(`/api/games/${gameId}/again`, {}));
    else go(link, async () => { const made = await api("/api/games", sameSettings(now)); return { url: made.url || `/g/${made.id}/` }; });
  });
}

/** The lobby the seat `offer.by` opened, with one button that joins it (the server keeps the old seat). */
export function offerLobby(offer, me, nameOf, reveal) {
  if (!offer || !me || offer.by === me) return;
  const join = h("button", { type: "button", class: "primary", text: gettext("Join the new table") });
  join.onclick = () => go(join, async () => ({ ...(await api(`/api/games/${offer.game}/join`, {})), url: offer.url }));
  fill(box(), h("p", { text: fmt(gettext("%(name)s opened a new table with the same seats."), { name: nameOf(offer.by) }) }), join);
  reveal();
}
