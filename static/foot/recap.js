/**
 * "While you were away": after a friend comes back, the moves made since their seat lost its
 * socket (the state's `recap`, read by the server from the stored moves and redacted for this
 * seat), told line by line as the log tells them (log.js, reasons included), after a line
 * counting the earlier moves left out; in a dialog they close when they have read it.
 */
import { fmt, gettext, ngettext } from "./i18n.js";
import { GameLog } from "./log.js";
import { h } from "./dom.js";

/** The recap's lines: `li` elements worded by the log, "… and K earlier moves" first. */
export function recapLines(recap, me, players) {
  const list = h("ol");
  const log = new GameLog(list);
  for (const entry of recap.moves || []) log.addMove(entry.v, entry.events || [], me, players, null);
  const lines = [...list.children];
  if (lines.length && recap.earlier > 0) {
    const count = recap.earlier;
    lines.unshift(h("li", { class: "deal", text: fmt(ngettext("… and %(count)s earlier move", "… and %(count)s earlier moves", count), { count }) }));
  }
  return lines;
}

export function showRecap(root, recap, me, players) {
  const lines = recapLines(recap, me, players);
  if (!lines.length) return null;
  const old = document.getElementById("recap");
  if (old) old.remove();
  const close = h("button", { type: "button", class: "primary", id: "btn-close-recap", autofocus: true, text: gettext("Back to the table") });
  const dialog = h("dialog", { id: "recap", class: "result recap", "aria-labelledby": "recap-title" },
    h("h2", { id: "recap-title", text: gettext("While you were away") }),
    h("ol", { class: "log recap-lines" }, ...lines),
    h("p", { class: "result-links" }, close));
  close.addEventListener("click", () => dialog.close());
  root.append(dialog);
  if (document.querySelector("dialog[open]") || typeof dialog.showModal !== "function") dialog.setAttribute("open", "");
  else dialog.showModal();
  return dialog;
}
