/**
 * Learn to play: the lesson's prompt on the table page. After every state and update of a lesson
 * game the page asks the server for the lesson's current step (GET /api/games/<id>/lesson); the
 * server decides which step it is and words its prompt in the page's language. This module only
 * shows that prompt, above the player's controls (never over the hand or the buttons), and at the
 * end of a part the server's offers (the next part, a real game): each button makes the game the
 * server named. It also highlights what the server names for the step: the hand's cards, the
 * buttons and the team's melds to press, marked again whenever the table redraws them. The page
 * tells the server whether it is used by touch or by mouse (the pointer and hover media
 * queries, never the user agent), so the prompt says "tap" or "click". No rule and no step is
 * decided here.
 */
import { api } from "./net.js";

/** "touch" where the main pointer is a finger (coarse, no hover), else "mouse". */
function device() {
  return window.matchMedia("(pointer: coarse) and (hover: none)").matches ? "touch" : "mouse";
}

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
    this.marks = { cards: [], buttons: [], melds: [] };
    this.table = document.getElementById("table") || document.body;
    // The table redraws the hand and the melds on every change: mark them again after each redraw.
    new MutationObserver(() => this.mark()).observe(this.table, { childList: true, subtree: true });
  }

  /** Ask for the current step; while an answer is awaited, ask once more after it (bots move fast). */
  async refresh() {
    if (this.asking) { this.askAgain = true; return; }
    this.asking = true;
    try {
      do {
        this.askAgain = false;
        this.show(await api(`/api/games/${this.gameId}/lesson?device=${device()}`));
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
    this.marks = step.off_course || step.last
      ? { cards: [], buttons: [], melds: [] }
      : { cards: (step.cards || []).flat(), buttons: step.buttons || [], melds: step.melds || [] };
    this.mark();
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

  /** Highlights the step's cards in the hand, its buttons and the team's melds it adds to. */
  mark() {
    const wanted = new Set([
      ...this.marks.cards.map((code) => `#hand button.card[data-code="${code}"]`),
      ...this.marks.buttons.map((id) => `#${id}`),
      ...this.marks.melds.map((rank) => `#melds-us button[data-rank="${rank}"]`),
    ]);
    const marked = wanted.size ? new Set(document.querySelectorAll([...wanted].join(", "))) : new Set();
    for (const element of document.querySelectorAll(".lesson-mark")) {
      if (!marked.has(element)) element.classList.remove("lesson-mark");
    }
    for (const element of marked) element.classList.add("lesson-mark");
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
