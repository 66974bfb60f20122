/**
 * Moves shown at a human pace, driven by the server's events: a card flies from where it came
 * from to where it went (stock → seat for a draw, pile → seat for a take, seat → meld, seat →
 * discard pile), one move after another, with an optional sound. The pace is a setting
 * (settings.js; `?speed=fast` skips the animations); with prefers-reduced-motion nothing flies,
 * the moves only follow each other with a pause. Only transform and opacity are animated.
 */
import { cardBack, cardFace } from "./cards.js";
import { onSettingsChange, settings } from "./settings.js";
import { play } from "./sound.js";

const FACTORS = { slow: 1.8, normal: 1, fast: 0 };

export function initialSpeed() {
  return settings().speed;
}

export class Pacer {
  constructor(speed = initialSpeed()) {
    this.speed = speed in FACTORS ? speed : "normal";
    this.flights = 0; // cards flown so far (read by tests)
    const query = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    this.reducedMotion = Boolean(query && query.matches);
    if (query && query.addEventListener) query.addEventListener("change", () => { this.reducedMotion = query.matches; });
    onSettingsChange((values) => { this.speed = values.speed; });
  }

  setSpeed(speed) {
    if (speed in FACTORS) this.speed = speed;
  }

  get factor() {
    return FACTORS[this.speed];
  }

  wait(ms) {
    const scaled = ms * this.factor;
    return scaled > 0 ? new Promise((resolve) => setTimeout(resolve, scaled)) : Promise.resolve();
  }

  /** Flies a card (a face when `code` is given, else a back) from one element to another. */
  async fly(from, to, code, ms = 450, delay = 0) {
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
    card.removeAttribute("aria-label");
    // Placed once where it starts; from there only its transform and opacity change.
    card.style.left = `${start.left + start.width / 2 - 24}px`;
    card.style.top = `${start.top + start.height / 2 - 34}px`;
    document.body.append(card);
    this.flights += 1;
    const dx = end.left + end.width / 2 - (start.left + start.width / 2);
    const dy = end.top + end.height / 2 - (start.top + start.height / 2);
    const animation = card.animate([
      { transform: "translate(0, 0) scale(1)", opacity: 0.2 },
      { transform: "translate(0, 0) scale(1.05)", opacity: 1, offset: 0.12 },
      { transform: `translate(${dx}px, ${dy}px) scale(0.9)`, opacity: 1 },
    ], { duration, delay: delay * this.factor, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" });
    try { await animation.finished; } catch (error) { /* cancelled */ }
    card.remove();
  }
}

/**
 * Shows one event: its sound, and for another seat's move the flight of its cards.
 * `places` finds the elements: stock(), discard(), seat(seat), melds(seat), meld(seat, key).
 */
export function showEvent(pacer, event, places, { me, mine }) {
  soundOf(event, me);
  if (mine) return null;
  switch (event.type) {
    case "draw": {
      if (event.replacement) return pacer.fly(places.stock(), places.seat(event.seat), null, 300);
      const flights = [];
      for (let i = 0; i < Math.min(event.count, 3); i += 1) flights.push(pacer.fly(places.stock(), places.seat(event.seat), null, 450, i * 90));
      return Promise.all(flights);
    }
    case "take_pile": return pacer.fly(places.discard(), places.seat(event.seat), event.top, 550);
    case "meld": return Promise.all(event.groups.map((group, index) =>
      pacer.fly(places.seat(event.seat), places.meld(event.seat, group.meld), group.cards[0], 450, index * 80)));
    case "discard": return pacer.fly(places.seat(event.seat), places.discard(), event.card, 450);
    case "red_three": return pacer.fly(places.seat(event.seat), places.melds(event.seat), event.card, 400);
    case "foot": return pacer.wait(300);
    default: return null;
  }
}

function soundOf(event, me) {
  if (["draw", "take_pile", "meld", "discard", "red_three"].includes(event.type) && !event.replacement) play("card");
  else if (event.type === "deal_start") play("shuffle");
  else if (event.type === "turn" && me && event.seat === me) play("turn");
}
