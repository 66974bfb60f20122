/**
 * Keeps what the player was preparing — the groups set aside for a first meld and the selected
 * cards — in sessionStorage, keyed by game and seat, so that a reload in the middle of a turn
 * gives them back. Kept only for the turn they belong to: a later turn or deal starts clean,
 * as the table does (R42: set-aside groups are interface state; the cards never left the hand).
 */
const keyOf = (gameId, seat) => `foot.staging.${gameId}.${seat}`;
// Nothing is saved for a game and seat before its kept staging was read back: the page's first
// render (still empty) must not wipe what the reload is about to restore.
const readBack = new Set();

/** Where in the game the staging belongs: the same deal, turn and phase. */
function moment(view) {
  return { deal: view.deal, turn: view.turn, phase: view.phase };
}

function sameMoment(a, b) {
  return a && b && a.deal === b.deal && a.turn === b.turn && a.phase === b.phase;
}

export function saveStaging(gameId, seat, view, staged, selected) {
  if (!gameId || !seat || !view || !readBack.has(keyOf(gameId, seat))) return;
  try {
    if (!staged.length && !selected.size) sessionStorage.removeItem(keyOf(gameId, seat));
    else sessionStorage.setItem(keyOf(gameId, seat), JSON.stringify({ at: moment(view), staged, selected: [...selected] }));
  } catch (error) { /* storage full or off: nothing to keep */ }
}

/** The kept staging if it still fits the view (same moment, every card still in the hand), else null. */
export function loadStaging(gameId, seat, view) {
  if (!gameId || !seat || !view) return null;
  readBack.add(keyOf(gameId, seat));
  let kept;
  try { kept = JSON.parse(sessionStorage.getItem(keyOf(gameId, seat)) || "null"); } catch (error) { kept = null; }
  if (!kept || !sameMoment(kept.at, moment(view)) || !Array.isArray(kept.staged) || !Array.isArray(kept.selected)) return null;
  const left = { ...(view.hand || {}) };
  const fits = kept.staged.every((group) => Array.isArray(group)
    && group.every((code) => typeof code === "string" && (left[code] = (left[code] || 0) - 1) >= 0));
  if (!fits) return null;
  return { staged: kept.staged, selected: kept.selected.filter((key) => typeof key === "string") };
}
