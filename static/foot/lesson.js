/**
 * Learn to play: the lesson's prompt on the table page. After every state and update of a lesson
 * game the page asks the server for the lesson's current step (GET /api/games/<id>/lesson); the
 * server decides which step it is and words its prompt in the page's language. This module only
 * shows that prompt, above the player's controls (never over the hand or the buttons), and at the
 * end of a part the server's offers (the next part, a real game): each button makes the game the
 * server named. No rule and no step is decided here.
 */
import { api } from "./net.js";

export class LessonPrompt {
  constructor(gameId, player) {
    this.gameId = gameId;
    this.box = document.createElement("section");
    this.box.id = "lesson";
    this.box.className = "lesson-prompt";
    this.box.hidden = true;
    this.box.setAttribute("aria-live", "polite");
    this.text = document.createElement("p");
    this.text.id = "lesson-text";
    this.offers = document.createElement("div");
    this.offers.className = "lesson-offers";
    this.shownOffers = "";
    this.box.append(this.text, this.offers);
    player.prepend(this.box);
    this.asking = false;
    this.askAgain = false;
  }

  /** Ask for the current step; while an answer is awaited, ask once more after it (bots move fast). */
  async refresh() {
    if (this.asking) { this.askAgain = true; return; }
    this.asking = true;
    try {
      do {
        this.askAgain = false;
        this.show(await api(`/api/games/${this.gameId}/lesson`));
      } while (this.askAgain);
    } catch (error) {
      // The prompt stays as it was; the next update asks again.
    } finally {
      this.asking = false;
    }
  }

  show(step) {
    this.box.hidden = false;
    this.box.dataset.step = step.step;
    this.box.dataset.part = step.part;
    this.text.textContent = step.prompt;
    const offers = step.offers || [];
    const key = JSON.stringify(offers);
    if (key === this.shownOffers) return; // keep the buttons (and the focus) as they are
    this.shownOffers = key;
    this.offers.replaceChildren(...offers.map((offer, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = index === 0 ? "primary small" : "small";
      button.textContent = offer.label;
      button.addEventListener("click", () => this.start(button, offer.game));
      return button;
    }));
  }

  /** The game an offer names (the next part, or a real game), and the page goes there. */
  async start(button, body) {
    button.disabled = true;
    try {
      const game = await api("/api/games", body);
      window.location.assign(game.url || `/g/${game.id}/`);
    } catch (error) {
      this.text.textContent = error.message;
      button.disabled = false;
    }
  }
}
