/** The invite page: joins the friend's table by its code and opens it. */
import { api } from "./net.js";
import { gettext } from "./i18n.js";

const box = document.getElementById("join");
const button = document.getElementById("join-button");
const errorBox = document.getElementById("join-error");

button.addEventListener("click", async () => {
  button.disabled = true;
  errorBox.textContent = "";
  try {
    await api("/api/session");
    const game = await api(`/api/games/${box.dataset.game}/join`, {});
    window.location.assign(game.url || `/g/${game.id}/`);
  } catch (error) {
    errorBox.textContent = error.message || gettext("This invitation cannot be used.");
    button.disabled = false;
  }
});
