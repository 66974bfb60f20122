/**
 * Friends who are away, said in words, above the table and in the absent friend's seat box: "Bob
 * is away — the computer plays for Bob in 0:25", counting down to the deadline the server's
 * presence message sent, then "The computer is playing for Bob"; and to the player the computer
 * finishes a turn for, that the seat is theirs again at their next turn. It shows what the
 * presence message says and decides nothing.
 */
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./dom.js";

/** "0:25" from a number of seconds (never below 0:00). */
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export class AwayNotes {
  /** `box`: where the lines go; `nameOf(seat)`: what the page calls that seat's player. */
  constructor(box, nameOf) {
    this.box = box;
    this.nameOf = nameOf;
    this.seats = {};
    this.deadlines = {};
    this.standIns = [];
    this.me = null;
    this.timer = null;
  }

  /** A presence message: its deadlines (server time) turned into this browser's clock. */
  update(message, me) {
    const offset = typeof message.now === "number" ? Date.now() / 1000 - message.now : 0;
    this.seats = message.seats || {};
    this.deadlines = {};
    for (const [seat, deadline] of Object.entries(message.deadlines || {})) this.deadlines[seat] = deadline + offset;
    this.standIns = message.stand_ins || [];
    this.me = me;
    clearInterval(this.timer);
    this.timer = Object.keys(this.deadlines).length ? setInterval(() => this.draw(), 1000) : null;
    this.draw();
  }

  /**
   * What another seat's box says of its absent player: the countdown to the computer's turn, then
   * "The computer is playing for Bob"; "Bob is away" when nobody plays for them (the game is
   * over); null for a seat whose player is there, a computer's seat, and your own.
   */
  seatLine(seat) {
    if (seat === this.me) return null;
    const name = this.nameOf(seat);
    const deadline = this.deadlines[seat];
    if (deadline !== undefined) {
      const left = deadline - Date.now() / 1000;
      return left > 0
        ? fmt(gettext("%(name)s is away — the computer plays for %(name)s in %(time)s"), { name, time: clock(left) })
        : fmt(gettext("The computer is playing for %(name)s"), { name });
    }
    if (this.standIns.includes(seat)) return fmt(gettext("The computer is playing for %(name)s"), { name });
    const state = this.seats[seat];
    return state === "disconnected" || state === "away" ? fmt(gettext("%(name)s is away"), { name }) : null;
  }

  /** The lines above the table: every seat the computer plays or will play for, and your own turn it finishes. */
  lines() {
    const lines = [];
    for (const seat of Object.keys(this.deadlines)) {
      const line = this.seatLine(seat);
      if (line) lines.push(line);
    }
    for (const seat of this.standIns) {
      if (seat in this.deadlines) continue;
      if (seat === this.me) lines.push(gettext("The computer is finishing this turn for you: you play again from your next turn."));
      else lines.push(this.seatLine(seat));
    }
    return lines;
  }

  draw() {
    const lines = this.lines();
    fill(this.box, ...lines.map((text) => h("p", { class: "away-note", text })));
    this.box.hidden = !lines.length;
    // The seat boxes' notes (render.js) count down with the lines.
    for (const note of document.querySelectorAll(".presence[data-away-seat]")) {
      note.textContent = this.seatLine(note.dataset.awaySeat) || "";
    }
  }
}
