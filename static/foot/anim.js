/**
 * Moves shown at a human pace: a card flies from where it came from to where it went, one move
 * after another. The pace is a setting (`?speed=fast` or the table's menu, kept in localStorage);
 * with prefers-reduced-motion nothing flies, the moves only follow each other with a pause.
 */
import { cardBack, cardFace } from "./cards.js";

const FACTORS = { slow: 1.8, normal: 1, fast: 0 };
const STORE_KEY = "foot.speed";

export function initialSpeed() {
  const asked = new URLSearchParams(window.location.search).get("speed");
  if (asked && asked in FACTORS) {
    try { localStorage.setItem(STORE_KEY, asked); } catch (error) { /* private mode: keep it for this page */ }
    return asked;
  }
  try { return localStorage.getItem(STORE_KEY) in FACTORS ? localStorage.getItem(STORE_KEY) : "normal"; } catch (error) { return "normal"; }
}

export class Pacer {
  constructor(speed) {
    this.setSpeed(speed);
    this.reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  setSpeed(speed) {
    this.speed = speed in FACTORS ? speed : "normal";
    try { localStorage.setItem(STORE_KEY, this.speed); } catch (error) { /* ignore */ }
  }

  get factor() {
    return FACTORS[this.speed];
  }

  wait(ms) {
    const scaled = ms * this.factor;
    return scaled > 0 ? new Promise((resolve) => setTimeout(resolve, scaled)) : Promise.resolve();
  }

  /** Flies a card (a face when `code` is given, else a back) from one element to another. */
  async fly(from, to, code, ms = 450) {
    const duration = ms * this.factor;
    if (!from || !to || duration <= 0 || this.reducedMotion || typeof Element.prototype.animate !== "function") {
      await this.wait(ms * 0.6);
      return;
    }
    const start = from.getBoundingClientRect();
    const end = to.getBoundingClientRect();
    const card = code ? cardFace(code) : cardBack();
    card.classList.add("flying");
    card.setAttribute("aria-hidden", "true");
    card.removeAttribute("role");
    card.style.left = `${start.left + start.width / 2 - 24}px`;
    card.style.top = `${start.top + start.height / 2 - 34}px`;
    document.body.append(card);
    const dx = end.left + end.width / 2 - (start.left + start.width / 2);
    const dy = end.top + end.height / 2 - (start.top + start.height / 2);
    const animation = card.animate(
      [{ transform: "translate(0, 0) scale(1)" }, { transform: `translate(${dx}px, ${dy}px) scale(0.9)` }],
      { duration, easing: "cubic-bezier(.3,.7,.4,1)" },
    );
    try { await animation.finished; } catch (error) { /* cancelled */ }
    card.remove();
  }
}
