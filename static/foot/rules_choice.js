/**
 * The rules of a new solo or friends game on the home page (templates/_rules_choice.html): a
 * preset, or custom house rules from the number boxes. The server checks every value
 * (POST /api/games answers 400 naming the problem); the page only gathers them, and remembers the
 * last choice in the browser.
 */
const STORE = "foot.rules.";

function customRules(box) {
  const number = (name) => Number(box.querySelector(`[name=${name}]`).value);
  const rules = {};
  for (const name of ["deals", "hand_size", "clean_piles", "dirty_piles", "wild_piles", "pile_take", "red_three_value"]) rules[name] = number(name);
  rules.minimums = [1, 2, 3, 4].map((deal) => number(`minimum${deal}`));
  return rules;
}

/** The `rules` object for POST /api/games, or undefined for the standard rules. */
export function chosenRules(which) {
  const select = document.getElementById(`rules-${which}`);
  if (!select) return undefined;
  const box = document.getElementById(`custom-${which}`);
  const rules = select.value === "custom" ? customRules(box) : JSON.parse(select.selectedOptions[0].dataset.rules || "{}");
  const undo = document.getElementById(`undo-${which}`);
  if (undo) rules.undo = undo.checked;
  remember(which, select.value, rules);
  return Object.keys(rules).length ? rules : undefined;
}

function remember(which, preset, rules) {
  try {
    localStorage.setItem(STORE + which, JSON.stringify({ preset, rules }));
  } catch (error) { /* private mode: not remembered */ }
}

function restore(which, select, box) {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE + which) || "null");
  } catch (error) { saved = null; }
  if (!saved || ![...select.options].some((option) => option.value === saved.preset)) return;
  select.value = saved.preset;
  const undo = document.getElementById(`undo-${which}`);
  if (undo && saved.rules && "undo" in saved.rules) undo.checked = saved.rules.undo;
  if (saved.preset !== "custom" || !saved.rules) return;
  for (const [name, value] of Object.entries(saved.rules)) {
    if (name === "minimums") value.forEach((points, i) => { const input = box.querySelector(`[name=minimum${i + 1}]`); if (input) input.value = points; });
    else { const input = box.querySelector(`[name=${name}]`); if (input) input.value = value; }
  }
}

/** Restores the last choice and shows the custom boxes while Custom is chosen. */
export function connectRulesChoice(which) {
  const select = document.getElementById(`rules-${which}`);
  const box = document.getElementById(`custom-${which}`);
  if (!select || !box) return;
  restore(which, select, box);
  const show = () => { box.hidden = select.value !== "custom"; };
  select.addEventListener("change", show);
  show();
}
