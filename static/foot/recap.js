/**
 * "While you were away": after a friend comes back, the log lines of the versions made since
 * their seat lost its socket (the state's `recap_from`, the log rebuilt from its `recent`), in a
 * dialog they close when they have read it.
 */
import { gettext } from "./i18n.js";
import { h } from "./render.js";

/** The log's lines (log.js puts each version's number on its lines) from version `fromV` on. */
export function linesSince(log, fromV) {
  return [...log.querySelectorAll("li")].filter((line) => Number(line.dataset.v) >= fromV).map((line) => line.textContent);
}

export function showRecap(root, log, fromV) {
  const lines = linesSince(log, fromV);
  if (!lines.length) return null;
  const old = document.getElementById("recap");
  if (old) old.remove();
  const close = h("button", { type: "button", class: "primary", id: "btn-close-recap", text: gettext("Back to the table") });
  const dialog = h("dialog", { id: "recap", class: "result recap", "aria-labelledby": "recap-title" },
    h("h2", { id: "recap-title", text: gettext("While you were away") }),
    h("ol", { class: "log recap-lines" }, ...lines.map((text) => h("li", { text }))),
    h("p", { class: "result-links" }, close));
  close.addEventListener("click", () => dialog.close());
  root.append(dialog);
  if (document.querySelector("dialog[open]") || typeof dialog.showModal !== "function") dialog.setAttribute("open", "");
  else dialog.showModal();
  return dialog;
}
