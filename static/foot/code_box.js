/**
 * The invite code box (home page, /join/): a friend's code typed or pasted (the whole invite
 * link will do), Enter or Join seats the player at that table and opens it. The server finds the
 * table (POST /api/join); a code it does not know is said under the box, and nothing else changes.
 */
import { api } from "./net.js";
import { gettext } from "./i18n.js";

/** The code in what was typed: the last part of a pasted invite link, without spaces. */
export function codeOf(typed) {
  const text = typed.trim();
  const fromLink = text.match(/\/join\/([^/?#\s]+)/);
  return (fromLink ? fromLink[1] : text).replace(/\s+/g, "").toUpperCase();
}

export function connectCodeBox(form) {
  if (!form) return;
  const input = form.querySelector("input[name=code]");
  const button = form.querySelector("button[type=submit]");
  const problem = form.querySelector(".home-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = codeOf(input.value);
    problem.textContent = "";
    if (!code) {
      problem.textContent = gettext("Type the code your friend sent you.");
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      await api("/api/session");
      const game = await api("/api/join", { code });
      window.location.assign(game.url || `/g/${game.id}/`);
    } catch (error) {
      problem.textContent = error.message || gettext("Something went wrong. Please try again.");
      input.focus();
      button.disabled = false;
    }
  });
}
