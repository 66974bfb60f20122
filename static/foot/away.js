/**
 * Friends who are away, said in words: "Bob is away — the computer plays for Bob in 0:25",
 * counting down to the deadline the server's presence message sent, then "The computer is
 * playing for Bob"; and to the player the computer finishes a turn for, that the seat is theirs
 * again at their next turn. It shows what the presence message says and decides nothing.
 */
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./render.js";

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
    this.deadlines = {};
    this.standIns = [];
    this.me = null;
    this.timer = null;
  }

  /** A presence message: its deadlines (server time) turned into this browser's clock. */
  update(message, me) {
    const offset = typeof message.now === "number" ? Date.now() / 1000 - message.now : 0;
    this.deadlines = {};
    for (const [seat, deadline] of Object.entries(message.deadlines || {})) this.deadlines[seat] = deadline + offset;
    this.standIns = message.stand_ins || [];
    this.me = me;
    clearInterval(this.timer);
    this.timer = Object.keys(this.deadlines).length ? setInterval(() => this.draw(), 1000) : null;
    this.draw();
  }

  lines() {
    const now = Date.now() / 1000;
    const lines = [];
    for (const [seat, deadline] of Object.entries(this.deadlines)) {
      if (seat === this.me) continue;
      const name = this.nameOf(seat);
      lines.push(deadline > now
        ? fmt(gettext("%(name)s is away — the computer plays for %(name)s in %(time)s"), { name, time: clock(deadline - now) })
        : fmt(gettext("The computer is playing for %(name)s"), { name }));
    }
    for (const seat of this.standIns) {
      if (seat in this.deadlines) continue;
      lines.push(seat === this.me
        ? gettext("The computer is finishing this turn for you: you play again from your next turn.")
        : fmt(gettext("The computer is playing for %(name)s"), { name: this.nameOf(seat) }));
    }
    return lines;
  }

  draw() {
    const lines = this.lines();
    fill(this.box, ...lines.map((text) => h("p", { class: "away-note", text })));
    this.box.hidden = !lines.length;
  }
}
