/**
 * Learn to play: the lesson's prompt on the table page. After every state and update of a lesson
 * game the page asks the server for the lesson's current step (GET /api/games/<id>/lesson); the
 * server decides which step it is and words its prompt in the page's language. This module only
 * shows that prompt, above the player's controls (never over the hand or the buttons), and at the
 * end the server's offer of a real game. No rule and no step is decided here.
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
    this.offer = document.createElement("button");
    this.offer.type = "button";
    this.offer.id = "btn-real-game";
    this.offer.className = "primary small";
    this.offer.hidden = true;
    this.offer.addEventListener("click", () => this.startRealGame());
    this.box.append(this.text, this.offer);
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
    this.text.textContent = step.prompt;
    this.offer.hidden = !step.offer;
    if (step.offer) this.offer.textContent = step.offer;
  }

  async startRealGame() {
    this.offer.disabled = true;
    try {
      const game = await api("/api/games", { mode: "solo", level: "normal" });
      window.location.assign(game.url || `/g/${game.id}/`);
    } catch (error) {
      this.text.textContent = error.message;
      this.offer.disabled = false;
    }
  }
}
