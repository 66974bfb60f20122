/**
 * Play again (friends games): "Play again" asks the server for the next lobby and goes there; the
 * server's `play_again` offer of a lobby another player opened shows in the game-over dialog.
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

/** Outside a friends game (`friends()` false) the link stays the home page link it is. */
export function wirePlayAgain(link, gameId, friends) {
  link.addEventListener("click", (event) => {
    if (!friends()) return;
    event.preventDefault();
    go(link, () => api(`/api/games/${gameId}/again`, {}));
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
