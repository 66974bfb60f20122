/**
 * The player's settings, kept per browser (localStorage): large cards, a four-colour deck,
 * the pace of the animations and sounds. Each applies through an attribute on the root element
 * (data-large-cards, data-four-colour, data-speed, data-sound) that the CSS and the other modules
 * read, and on the table as foot.css expects them (data-cards="large", data-deck="four"); the
 * settings dialog (built here, reachable from the table's Settings button) changes them.
 */
import { gettext } from "./i18n.js";

const STORE_KEY = "foot.settings";
const SPEED_KEY = "foot.speed"; // the pace alone, as older pages kept it: read when the settings have none
export const SPEEDS = ["slow", "normal", "fast"];
const DEFAULTS = { largeCards: false, fourColour: false, speed: "normal", sound: false };

const listeners = new Set();
let current = null;

function readStore(key) {
  try { return localStorage.getItem(key); } catch (error) { return null; } // private mode: defaults
}

function writeStore(key, value) {
  try { localStorage.setItem(key, value); } catch (error) { /* private mode: for this page only */ }
}

/** The stored settings, with `?speed=` from the address taking over the pace (and kept). */
function load() {
  let stored;
  try { stored = JSON.parse(readStore(STORE_KEY) || "{}") || {}; } catch (error) { stored = {}; }
  const settings = { ...DEFAULTS };
  for (const key of ["largeCards", "fourColour", "sound"]) if (typeof stored[key] === "boolean") settings[key] = stored[key];
  const asked = new URLSearchParams(window.location.search).get("speed");
  const speed = [asked, stored.speed, readStore(SPEED_KEY)].find((value) => SPEEDS.includes(value));
  if (speed) settings.speed = speed;
  if (asked === settings.speed) {
    writeStore(STORE_KEY, JSON.stringify({ ...stored, speed: asked }));
    writeStore(SPEED_KEY, asked);
  }
  return settings;
}

export function settings() {
  if (!current) current = load();
  return current;
}

function apply(values) {
  const root = document.documentElement;
  root.toggleAttribute("data-large-cards", values.largeCards);
  root.toggleAttribute("data-four-colour", values.fourColour);
  root.dataset.speed = values.speed;
  root.dataset.sound = values.sound ? "on" : "off";
  // The table's own layout (foot.css) sizes and colours its cards from these two.
  const table = document.getElementById("table");
  if (table && table.hasAttribute("data-cards")) table.dataset.cards = values.largeCards ? "large" : "normal";
  if (table && table.hasAttribute("data-deck")) table.dataset.deck = values.fourColour ? "four" : "two";
}

/** Changes some settings: kept, applied to the page, and told to whoever listens (the pacer, the sounds). */
export function changeSettings(changes) {
  const next = { ...settings() };
  for (const [key, value] of Object.entries(changes)) {
    if (!(key in DEFAULTS)) continue;
    if (key === "speed" ? SPEEDS.includes(value) : typeof value === "boolean") next[key] = value;
  }
  current = next;
  writeStore(STORE_KEY, JSON.stringify(next));
  writeStore(SPEED_KEY, next.speed);
  apply(next);
  for (const listener of listeners) listener(next);
  return next;
}

export function onSettingsChange(listener) {
  listeners.add(listener);
}

// --- the dialog ------------------------------------------------------------------------------

function element(tag, attrs = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") made.textContent = value;
    else made.setAttribute(key, value);
  }
  made.append(...children);
  return made;
}

function checkbox(id, label, key) {
  const input = element("input", { type: "checkbox", id, name: key });
  input.checked = settings()[key];
  input.addEventListener("change", () => changeSettings({ [key]: input.checked }));
  return element("p", { class: "setting" }, input, element("label", { for: id, text: label }));
}

function paceChoice() {
  const names = { slow: gettext("Slow"), normal: gettext("Normal speed"), fast: gettext("Fast (no animations)") };
  const select = element("select", { id: "setting-speed", name: "speed" },
    ...SPEEDS.map((speed) => element("option", { value: speed, text: names[speed] })));
  select.value = settings().speed;
  select.addEventListener("change", () => changeSettings({ speed: select.value }));
  return element("p", { class: "setting" }, element("label", { for: "setting-speed", text: gettext("Animation pace") }), select);
}

function buildDialog() {
  const close = element("button", { type: "button", class: "primary", id: "settings-close", text: gettext("Close") });
  const dialog = element("dialog", { id: "settings-dialog", class: "settings-dialog", "aria-labelledby": "settings-title" },
    element("h2", { id: "settings-title", text: gettext("Settings") }),
    checkbox("setting-large-cards", gettext("Large cards"), "largeCards"),
    checkbox("setting-four-colour", gettext("Four-colour deck (clubs green, diamonds blue) and piles marked by shape"), "fourColour"),
    paceChoice(),
    checkbox("setting-sound", gettext("Sounds (a card, a shuffle, your turn)"), "sound"),
    close);
  close.addEventListener("click", () => dialog.close());
  return dialog;
}

/** Applies the stored settings to the page and makes `opener` (a button) open the dialog. */
export function initSettings(opener) {
  apply(settings());
  if (!opener) return;
  let dialog = null;
  opener.setAttribute("aria-haspopup", "dialog");
  opener.addEventListener("click", () => {
    if (!dialog) {
      dialog = buildDialog();
      document.body.append(dialog);
      dialog.addEventListener("close", () => opener.focus());
    }
    for (const input of dialog.querySelectorAll("input[type=checkbox]")) input.checked = settings()[input.name];
    dialog.querySelector("select").value = settings().speed;
    dialog.showModal();
    dialog.querySelector("input, select").focus();
  });
}
