/**
 * The house rules of a friends lobby: the host changes them with the rules choice the page shows
 * only to the host of a lobby (templates/table.html, `#lobby-rules`; POST /api/games/<id>/rules),
 * and every page of the table reloads when a fresh state brings other rules than it was drawn
 * with, so the friends see the new "House rules" before they sit. The server checks every value.
 */
import { api } from "./net.js";
import { chosenRules, connectRulesChoice } from "./rules_choice.js";

const table = document.getElementById("table");
const form = document.getElementById("lobby-rules");
const lobbyBox = document.getElementById("lobby");

/** Reloads the page when the state's rules differ from those the page was drawn with. */
export function reloadIfRulesChanged(rules) {
  if (!rules || !table || !table.dataset.rules) return;
  if (JSON.stringify(JSON.parse(table.dataset.rules)) !== JSON.stringify(rules)) window.location.reload();
}

if (form && lobbyBox && table) {
  connectRulesChoice("lobby");
  const follow = () => { form.hidden = lobbyBox.hidden; }; // shown with the lobby, gone once it starts
  new MutationObserver(follow).observe(lobbyBox, { attributes: true, attributeFilter: ["hidden"] });
  follow();
  const button = document.getElementById("btn-lobby-rules");
  const errorLine = document.getElementById("lobby-rules-error");
  button.addEventListener("click", async () => {
    button.disabled = true;
    errorLine.textContent = "";
    try {
      await api(`/api/games/${table.dataset.game}/rules`, { rules: chosenRules("lobby") || {} });
      window.location.reload();
    } catch (error) {
      errorLine.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
}
