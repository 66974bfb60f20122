/**
 * A friends table before it starts: who sits where, live (the state's seats and names, the
 * presence message's connections), the invite link and code with a copy button, a "Sit here"
 * on each free seat, and the host's "Start the game". A friend sees "Waiting for the host to
 * start" and no game button; someone without a seat sees "You are watching" and a Join on each
 * free seat. Each seated person has a name box (Enter saves: POST /api/nickname, the daily's
 * nickname rules, its refusals shown under the box); the server then has every page of the
 * table fetch a fresh state, so the others see the name at once. The server decides every change
 * (docs/PROTOCOL.md: `seat`, join, start, nickname); this only asks and shows.
 */
import { fmt, gettext } from "./i18n.js";
import { fill, h } from "./dom.js";
import { api } from "./net.js";
import { CLOCKWISE, directionName } from "./words.js";

export class Lobby {
  /** `actions`: {sit(seat), join(seat), start()}, each returning a promise or nothing. */
  constructor(box, actions) {
    this.box = box;
    this.actions = actions;
    this.errorText = "";
    this.copied = "";
    // Three parts: the seats (redrawn on every change), the name box (kept, so typing survives
    // a redraw), the invite and the host's Start (redrawn).
    this.top = h("div", { class: "lobby-top" });
    this.nameForm = this.nameBox();
    this.bottom = h("div", { class: "lobby-bottom" });
    fill(this.box, this.top, this.nameForm, this.bottom);
  }

  hide() {
    this.box.hidden = true;
  }

  error(text) {
    this.errorText = text || "";
    const line = this.box.querySelector("#lobby-error");
    if (line) line.textContent = this.errorText;
  }

  /** `table`: {me, host, code, players: {seat: {kind, name}}, presence: {seat: state}}. */
  show(table) {
    this.table = table;
    const { me, host } = table;
    const title = !me ? gettext("You are watching this table")
      : me === host ? gettext("Your table") : gettext("Waiting for the host to start");
    const note = !me ? gettext("A free seat is yours with Join; the game begins when the host starts it.")
      : me === host ? gettext("Send the link to your friends and start when everyone is here: the computer plays the empty seats.")
        : gettext("The host starts the game when everyone is here. You can change seats until then.");
    fill(this.top,
      h("h2", { id: "lobby-title", text: title }),
      h("p", { class: "lobby-note", text: note }),
      h("ul", { class: "lobby-seats", "aria-label": gettext("Seats") }, ...CLOCKWISE.map((seat) => this.seatLine(seat))));
    this.showName(me ? (table.players[me] || {}).name : null, Boolean(me));
    fill(this.bottom,
      table.code ? this.invite(table.code) : null,
      me && me === host ? h("button", { type: "button", class: "primary", id: "btn-start", text: gettext("Start the game"),
        onclick: (event) => this.run(event.currentTarget, () => this.actions.start()) }) : null,
      h("p", { class: "home-error", id: "lobby-error", role: "alert", text: this.errorText }));
    this.box.hidden = false;
  }

  seatLine(seat) {
    const { me, host, players, presence } = this.table;
    const player = players[seat] || { kind: "empty" };
    const free = player.kind === "empty";
    let who;
    if (seat === me) who = gettext("You");
    else if (free) who = gettext("Free seat");
    else if (player.kind === "bot") who = gettext("Computer");
    else who = player.name || gettext("Friend");
    const here = presence && presence[seat] === "connected";
    const status = free || player.kind === "bot" ? null
      : h("span", { class: `lobby-presence${here ? " here" : ""}`, text: here ? gettext("here") : gettext("not connected") });
    let button = null;
    if (free && me) button = h("button", { type: "button", class: "small", "data-sit": seat, text: gettext("Sit here"),
      onclick: (event) => this.run(event.currentTarget, () => this.actions.sit(seat)) });
    else if (free) button = h("button", { type: "button", class: "small primary", "data-join": seat, text: gettext("Join"),
      onclick: (event) => this.run(event.currentTarget, () => this.actions.join(seat)) });
    return h("li", { class: `lobby-seat${seat === me ? " mine" : ""}`, "data-seat": seat },
      h("span", { class: "lobby-direction", text: directionName(seat) }),
      h("span", { class: "lobby-name", text: seat === host ? fmt(gettext("%(name)s (host)"), { name: who }) : who }),
      status, button);
  }

  /** The name box: a label that says "name", the saved nickname, Enter or Save to change it. */
  nameBox() {
    const input = h("input", { id: "lobby-name", name: "nickname", type: "text", maxlength: "100", autocomplete: "nickname",
      oninput: () => { this.nameDirty = true; } });
    const status = h("p", { class: "note", id: "lobby-name-status", role: "status" });
    const save = h("button", { type: "submit", class: "small", id: "btn-save-name", text: gettext("Save") });
    const form = h("form", { class: "invite lobby-name-box", id: "lobby-name-form" },
      h("label", { for: "lobby-name", text: gettext("Your name, as the others see it") }),
      h("div", { class: "copy-row" }, input, save), status);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      save.disabled = true;
      status.textContent = "";
      try {
        const answer = await api("/api/nickname", { nickname: input.value });
        this.nameDirty = false;
        input.value = answer.nickname;
        status.textContent = fmt(gettext("Saved: the others see you as %(name)s."), { name: answer.nickname });
      } catch (error) {
        status.textContent = error.message || gettext("Something went wrong. Please try again.");
      } finally {
        save.disabled = false;
      }
    });
    return form;
  }

  /** Shows the name box to a seated person, with their nickname unless they are typing a new one. */
  showName(name, seated) {
    this.nameForm.hidden = !seated;
    const input = this.nameForm.querySelector("input");
    if (!this.nameDirty && document.activeElement !== input) input.value = name || "";
  }

  invite(code) {
    const link = new URL(`/join/${code}/`, window.location.href).href;
    const input = h("input", { id: "lobby-link", type: "text", readonly: true, value: link, "aria-label": gettext("Invite link") });
    const status = h("p", { class: "note", id: "lobby-copy-status", role: "status", text: this.copied });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(link);
        this.copied = gettext("Link copied. Send it to your friend, then start the game.");
      } catch (error) {
        input.select();
        this.copied = gettext("Select the link and copy it by hand.");
      }
      status.textContent = this.copied;
    };
    return h("div", { class: "invite lobby-invite" },
      h("label", { for: "lobby-link", text: gettext("Invite link") }),
      h("div", { class: "copy-row" }, input, h("button", { type: "button", id: "btn-copy-invite", text: gettext("Copy link"), onclick: copy })),
      h("p", { class: "lobby-code" }, gettext("Code:"), " ", h("strong", { id: "lobby-code", text: code })),
      status);
  }

  async run(button, work) {
    button.disabled = true;
    this.error("");
    try {
      await work();
    } catch (error) {
      this.error(error.message || gettext("Something went wrong. Please try again."));
      button.disabled = false;
    }
  }
}
