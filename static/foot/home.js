/**
 * The home page: Learn to play (a prepared first game that teaches), start today's daily game (or
 * continue it), a new game against the computer, or a table with a friend (its lobby shows the
 * invite link, and the host starts it there) or a friend's table by its code (code_box.js); and
 * the player's own games to continue (my_games.js).
 */
import { api } from "./net.js";
import { gettext } from "./i18n.js";
import { showMyGames } from "./my_games.js";
import { connectCodeBox } from "./code_box.js";
import { chosenRules, connectRulesChoice } from "./rules_choice.js";

const errorBox = document.getElementById("home-error");

function showError(error) {
  errorBox.textContent = error.message || gettext("Something went wrong. Please try again.");
}

async function withBusy(button, work) {
  button.disabled = true;
  errorBox.textContent = "";
  try {
    await work();
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function goTo(game) {
  window.location.assign(game.url || `/g/${game.id}/`);
}

document.getElementById("play-daily").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => goTo(await api("/api/games", { mode: "daily" }))));

document.getElementById("play-solo").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => {
    const level = document.querySelector("input[name=level]:checked").value;
    goTo(await api("/api/games", { mode: "solo", level, rules: chosenRules("solo") }));
  }));

// Learn to play: a prepared first game whose prompts walk a newcomer through the moves.
document.getElementById("play-lesson").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => goTo(await api("/api/games", { mode: "lesson" }))));

// A friends table opens at once: its lobby (on the table page) shows the invite link and who joins.
document.getElementById("play-friends").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => goTo(await api("/api/games", { mode: "friends", rules: chosenRules("friends") }))));

connectRulesChoice("solo");
connectRulesChoice("friends");

connectCodeBox(document.getElementById("code-form"));

showMyGames();
