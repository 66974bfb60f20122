/**
 * The home page: start today's daily game (or continue it), a new game against the computer,
 * or a table with a friend (shows the invite link; the host then starts the game); and the
 * player's own games to continue (my_games.js).
 */
import { api } from "./net.js";
import { gettext } from "./i18n.js";
import { showMyGames } from "./my_games.js";

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
    goTo(await api("/api/games", { mode: "solo", level }));
  }));

let friendsGame = null;

document.getElementById("play-friends").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => {
    friendsGame = await api("/api/games", { mode: "friends" });
    const link = new URL(`/join/${friendsGame.code}/`, window.location.href).href;
    document.getElementById("invite-link").value = link;
    document.getElementById("invite").hidden = false;
    document.getElementById("invite-link").select();
  }));

document.getElementById("copy-invite").addEventListener("click", async () => {
  const input = document.getElementById("invite-link");
  const status = document.getElementById("copy-status");
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = gettext("Link copied. Send it to your friend, then start the game.");
  } catch (error) {
    input.select();
    status.textContent = gettext("Select the link and copy it by hand.");
  }
});

document.getElementById("start-friends").addEventListener("click", (event) =>
  withBusy(event.currentTarget, async () => {
    await api(`/api/games/${friendsGame.id}/start`, {});
    goTo(friendsGame);
  }));

showMyGames();
