/**
 * The replay viewer: a finished game move by move with every hand open and every foot not yet
 * picked up (face up, marked so), drawn with the table's own rendering (render.js, cards.js) and
 * told with its log (log.js). The server computed every
 * step with the engine (GET /api/watch/<game>: the first view and one patch per move); this page
 * only applies the patches (patch.js) and shows the step asked for: play / pause, step either
 * way, a speed, and a link to the step shown. It decides no rule.
 */
import { expandCounts, cardFace } from "./cards.js";
import { fmt, gettext, pgettext } from "./i18n.js";
import { GameLog } from "./log.js";
import { api } from "./net.js";
import { applyPatch } from "./patch.js";
import { $, h } from "./dom.js";
import { positions, renderCentre, renderMelds, renderSeats, renderStatus } from "./render.js";
import { seatName } from "./words.js";

const root = $("table");
const LOG_STEPS = 40; // moves told in the log before the one shown

const replay = { data: null, views: [], at: 0, timer: null, me: null };

/** The open view after `step` moves (0: the deal), from the nearest one already made. */
function viewAt(step) {
  let known = Math.min(step, replay.views.length - 1);
  while (known < step) {
    replay.views.push(applyPatch(replay.views[known], replay.data.steps[known].patch));
    known += 1;
  }
  return replay.views[step];
}

function total() {
  return replay.data.steps.length;
}

function openHand(view, seat) {
  const cards = expandCounts((view.hands || {})[seat] || {}, "rank");
  const name = seatName(seat, replay.me, replay.data.players);
  return h("div", { class: "open-hand", role: "group", "aria-label": fmt(gettext("Cards of %(name)s"), { name }) },
    ...cards.map((code) => cardFace(code)));
}

/** A foot not yet picked up, face up and marked so (R44: picked up once the hand is played); none after. */
function openFoot(view, seat) {
  const foot = (view.feet || {})[seat];
  if (!foot) return null;
  const name = seatName(seat, replay.me, replay.data.players);
  return h("div", { class: "open-foot", role: "group", "aria-label": fmt(gettext("Foot of %(name)s, not picked up"), { name }) },
    h("span", { class: "foot-label", "aria-hidden": "true" }, gettext("Foot, not picked up")),
    ...expandCounts(foot, "rank").map((code) => cardFace(code)));
}

function drawTable(view) {
  const context = { me: replay.me, players: replay.data.players, presence: {} };
  renderSeats(view, context);
  for (const [position, seat] of Object.entries(positions(replay.me))) {
    const foot = openFoot(view, seat);
    $(`seat-${position}`).append(openHand(view, seat), ...(foot ? [foot] : []));
  }
  renderCentre(view);
  renderMelds(view, { ...context, selectedCodes: [], isMyTurn: false, lastMelds: new Set() });
  renderStatus(view, context);
}

/** The log of the moves up to the one shown (the last LOG_STEPS of them), and that move's own line. */
function drawLog(step) {
  const log = new GameLog($("log"));
  $("log").replaceChildren();
  let last = [];
  for (let index = Math.max(1, step - LOG_STEPS); index <= step; index += 1) {
    const move = replay.data.steps[index - 1];
    last = log.linesOf(move.events, replay.me, replay.data.players, viewAt(index - 1));
    for (const line of last) log.append(line, index);
  }
  return last.map((line) => line.text).join(" ");
}

function bannerText(view, step, told) {
  if (step === 0) return gettext("The deal. Press Play or Step to watch the game.");
  const over = gettext("The game is over.");
  // The last move's own line already says so (its game_over event); a later step is the same view.
  return (view.phase === "over" || view.winner) && !told.includes(over) ? `${told} ${over}` : told;
}

function show(step) {
  replay.at = Math.max(0, Math.min(step, total()));
  // A move that ended a deal also dealt the next one: its step shows the deal as it ended.
  const move = replay.at > 0 ? replay.data.steps[replay.at - 1] : null;
  const view = move && move.deal_end ? move.deal_end : viewAt(replay.at);
  root.dataset.dealEnd = move && move.deal_end ? String(move.deal_end.deal) : "";
  drawTable(view);
  const told = drawLog(replay.at);
  $("turn-banner").textContent = bannerText(view, replay.at, told);
  $("replay-position").value = String(replay.at);
  $("replay-count").textContent = fmt(gettext("Move %(n)s of %(last)s"), { n: replay.at, last: total() });
  $("btn-back").disabled = replay.at === 0;
  $("btn-first").disabled = replay.at === 0;
  $("btn-step").disabled = replay.at === total();
  root.dataset.step = String(replay.at);
  root.setAttribute("aria-busy", "false");
}

function remember() {
  const url = new URL(window.location.href);
  url.searchParams.set("step", String(replay.at));
  window.history.replaceState(null, "", url);
}

function playing() {
  return replay.timer !== null;
}

function setPlaying(on) {
  if (replay.timer !== null) clearInterval(replay.timer);
  replay.timer = null;
  if (on) {
    if (replay.at >= total()) show(0);
    replay.timer = setInterval(tick, Number($("replay-speed").value) || 900);
  } else remember();
  $("btn-play").textContent = on ? pgettext("replay", "Pause") : pgettext("replay", "Play");
  $("btn-play").setAttribute("aria-pressed", String(on));
}

function tick() {
  show(replay.at + 1);
  if (replay.at >= total()) setPlaying(false);
}

function go(step) {
  setPlaying(false);
  show(step);
  remember();
}

function wire() {
  $("btn-play").addEventListener("click", () => setPlaying(!playing()));
  $("btn-step").addEventListener("click", () => go(replay.at + 1));
  $("btn-back").addEventListener("click", () => go(replay.at - 1));
  $("btn-first").addEventListener("click", () => go(0));
  $("replay-position").addEventListener("input", (event) => go(Number(event.target.value)));
  $("replay-speed").addEventListener("change", () => { if (playing()) setPlaying(true); });
  $("btn-side").addEventListener("click", () => {
    const open = root.dataset.side !== "open";
    root.dataset.side = open ? "open" : "closed";
    $("btn-side").setAttribute("aria-expanded", String(open));
  });
  $("btn-copy-replay").addEventListener("click", async () => {
    remember();
    try {
      await navigator.clipboard.writeText(window.location.href);
      $("message").textContent = gettext("Link copied.");
    } catch (error) {
      $("message").textContent = window.location.href;
    }
  });
}

async function start() {
  wire();
  try {
    replay.data = await api(`/api/watch/${root.dataset.game}`);
  } catch (error) {
    $("message").textContent = error.message;
    return;
  }
  replay.me = replay.data.seat || null;
  if (!replay.me) { // a watcher who did not play: the teams by their seats, not "your team"
    $("team-us-title").textContent = gettext("North and South");
    $("team-them-title").textContent = gettext("East and West");
  }
  replay.views = [replay.data.first];
  $("replay-position").max = String(total());
  const asked = Number(new URLSearchParams(window.location.search).get("step"));
  show(Number.isInteger(asked) && asked > 0 ? asked : 0);
}

start();
