/**
 * The "What happened" log: one line per move, told the way a player would tell it ("East drew
 * 2 cards and laid a red three (3♥)."), the dealt red threes at a deal's start, your own lines
 * marked. It reads the events of docs/VIEW.md (already redacted for this seat) and decides no rule.
 * After a reload the lines are rebuilt from the recent events the server's `state` carries.
 * A computer's line carries the reason its move's `reason` event gave, shown when tapped (reasons.js).
 */
import { cardList, cardShort, rankPlural } from "./cards.js";
import { fmt, gettext, npgettext, pgettext } from "./i18n.js";
import { joinList } from "./numbers.js";
import { lineWithReason } from "./reasons.js";
import { dealLine, seatName, teamOf } from "./words.js";

const MAX_LINES = 80;
const DEAL_EVENTS = new Set(["deal_end", "deal_start", "game_over"]);


/** One clause of a sentence, for you or for someone else ("drew 2 cards" / "hast … gezogen"). */
const CLAUSES = {
  draw(clause, own) {
    // A list ("Joker and A♦"): "Joker A♦" read as one card (issue 29).
    if (own && clause.cards.length) return fmt(pgettext("you", "drew %(cards)s"), { cards: joinList(clause.cards.map(cardShort)) });
    return own
      ? fmt(npgettext("you", "drew %(count)s card", "drew %(count)s cards", clause.count), { count: clause.count })
      : fmt(npgettext("someone", "drew %(count)s card", "drew %(count)s cards", clause.count), { count: clause.count });
  },
  take(clause, own) {
    return own
      ? fmt(npgettext("you", "took the pile (%(count)s card)", "took the pile (%(count)s cards)", clause.count), { count: clause.count })
      : fmt(npgettext("someone", "took the pile (%(count)s card)", "took the pile (%(count)s cards)", clause.count), { count: clause.count });
  },
  meld(clause, own) {
    const cards = clause.parts.join(", ");
    return own ? fmt(pgettext("you", "melded %(cards)s"), { cards }) : fmt(pgettext("someone", "melded %(cards)s"), { cards });
  },
  redThree(clause, own) {
    const values = { count: clause.cards.length, cards: cardList(clause.cards) };
    return own
      ? fmt(npgettext("you", "laid a red three (%(cards)s)", "laid %(count)s red threes (%(cards)s)", values.count), values)
      : fmt(npgettext("someone", "laid a red three (%(cards)s)", "laid %(count)s red threes (%(cards)s)", values.count), values);
  },
  foot(clause, own) {
    return own ? pgettext("you", "picked up your foot") : pgettext("someone", "picked up the foot");
  },
  discard(clause, own) {
    const card = cardShort(clause.card);
    return own ? fmt(pgettext("you", "discarded %(card)s"), { card }) : fmt(pgettext("someone", "discarded %(card)s"), { card });
  },
  undo(clause, own) {
    return own ? pgettext("you", "took back the last meld") : pgettext("someone", "took back the last meld");
  },
  goOut(clause, own) {
    return own ? pgettext("you", "went out") : pgettext("someone", "went out");
  },
};

/**
 * Turns the events of one version into log lines: the clauses of each seat, in the order they
 * happened, joined into one sentence per seat; deal ends and starts are lines of their own.
 */
class LineBuilder {
  constructor(context) {
    this.context = context; // { me, players, knownMelds(team) -> Set of meld keys already on the table }
    this.lines = [];
    this.actor = null;
  }

  clausesOf(seat) {
    if (!this.actor || this.actor.seat !== seat) {
      this.flush();
      this.actor = { seat, clauses: [] };
    }
    return this.actor.clauses;
  }

  clause(seat, kind, fresh) {
    const clauses = this.clausesOf(seat);
    let found = clauses.find((clause) => clause.kind === kind);
    if (!found) {
      found = { kind, ...fresh };
      clauses.push(found);
    }
    return found;
  }

  flush() {
    if (!this.actor || !this.actor.clauses.length) return;
    const { seat, clauses } = this.actor;
    const own = seat === this.context.me;
    const parts = clauses.map((clause) => CLAUSES[clause.kind](clause, own)).filter(Boolean);
    if (parts.length) {
      const actions = joinList(parts);
      const text = own ? fmt(gettext("You %(actions)s."), { actions })
        : fmt(pgettext("log", "%(name)s %(actions)s."), { name: seatName(seat, this.context.me, this.context.players), actions });
      this.lines.push({ text, mine: own, seat });
    }
    this.actor = null;
  }

  add(event) {
    const own = event.seat === this.context.me;
    switch (event.type) {
      case "draw": {
        // A red three's replacement is part of the draw for you (you see the card) and silent for others.
        if (event.replacement && !own) return;
        const clause = this.clause(event.seat, "draw", { count: 0, cards: [] });
        if (!event.replacement) clause.count += event.count;
        clause.cards.push(...(event.cards || []));
        return;
      }
      case "red_three": {
        this.clause(event.seat, "redThree", { cards: [] }).cards.push(event.card);
        const draw = this.clausesOf(event.seat).find((clause) => clause.kind === "draw");
        const index = draw ? draw.cards.indexOf(event.card) : -1;
        if (index >= 0) draw.cards.splice(index, 1); // laid at once: it is not among the cards kept
        return;
      }
      case "take_pile": this.clause(event.seat, "take", { count: event.count }); return;
      case "meld": this.addMeld(event); return;
      case "discard": this.clause(event.seat, "discard", { card: event.card }); return;
      case "foot": this.clause(event.seat, "foot", {}); return;
      case "go_out": this.clause(event.seat, "goOut", {}); return;
      case "undo": this.clause(event.seat, "undo", {}); return;
      case "reason": this.addReason(event); return;
      default:
        if (DEAL_EVENTS.has(event.type)) this.addDealLine(event);
    }
  }

  addMeld(event) {
    const team = event.team || teamOf(event.seat);
    const known = this.context.knownMelds(team);
    const clause = this.clause(event.seat, "meld", { parts: [] });
    for (const group of event.groups) {
      // A new meld has at least 3 cards (R15): fewer went onto one, even one laid before the log began.
      const addition = group.meld !== undefined && (known.has(group.meld) || group.cards.length < 3);
      const cards = cardList(group.cards);
      clause.parts.push(addition
        ? fmt(gettext("%(cards)s onto the %(rank)s"), { cards, rank: rankPlural(this.context.meldRank(team, group)) })
        : cards);
      if (group.meld !== undefined) known.add(group.meld);
    }
  }

  /** The reason comes last in its move's events: it belongs to that seat's line (a deal's end may follow it). */
  addReason(event) {
    this.flush();
    const line = this.lines.slice().reverse().find((found) => found.seat === event.seat);
    if (line) line.reason = { code: event.code, params: event.params };
  }

  addDealLine(event) {
    this.flush();
    const text = dealLine(event, this.context.me);
    if (text) this.lines.push({ text, mine: false, deal: true });
  }

  result() {
    this.flush();
    return this.lines;
  }
}

/**
 * Keeps the log element: `addMove` for a version as it is shown, `restore` from a state's recent
 * events. Knows which melds are already on the table (an addition reads "9♦ onto the Nines").
 */
export class GameLog {
  constructor(list) {
    this.list = list;
    this.melds = { NS: new Map(), EW: new Map() }; // team -> meld key -> rank, this deal
    this.lastV = null;
    this.lastBySeat = {}; // seat -> the last line of its last move, shown in its seat box (render.js)
  }

  /** The lines of one version's events; `before`: the view they were applied to (null: unknown). */
  linesOf(events, me, players, before) {
    const melds = this.melds;
    if (before && before.melds) {
      for (const team of ["NS", "EW"]) {
        for (const [key, meld] of Object.entries(before.melds[team] || {})) melds[team].set(key, meld.rank);
      }
    }
    const known = { NS: new Set(melds.NS.keys()), EW: new Set(melds.EW.keys()) };
    const context = {
      me, players,
      knownMelds: (team) => known[team],
      meldRank: (team, group) => melds[team].get(group.meld) || rankOfGroup(group),
    };
    const builder = new LineBuilder(context);
    for (const event of events) {
      if (event.type === "deal_start") for (const team of ["NS", "EW"]) { melds[team].clear(); known[team].clear(); }
      builder.add(event);
      if (event.type === "undo") melds[event.team].clear(); // the next view says which stay
      if (event.type === "meld") {
        const team = event.team || teamOf(event.seat);
        for (const group of event.groups) {
          if (group.meld !== undefined && !melds[team].has(group.meld)) melds[team].set(group.meld, rankOfGroup(group));
        }
      }
    }
    return builder.result();
  }

  addMove(v, events, me, players, before) {
    if (this.lastV !== null && v <= this.lastV) return; // already told (restored from the state)
    this.lastV = v;
    this.tell(v, events, me, players, before);
  }

  /** The lines of `events` of version v (the rest of a move whose start addMove told). */
  tell(v, events, me, players, before = null) {
    const lines = this.linesOf(events, me, players, before);
    for (const line of lines) this.append(line, v);
    // Each line to the seat it tells of: one version may carry moves of several seats (a turn
    // ends and the next seat's start follows), and the deal's own lines belong to no seat.
    for (const line of lines) if (line.seat && !line.deal) this.lastBySeat[line.seat] = line.text;
  }

  /** After a (re)connection: the log rebuilt from the state's recent events ({v, events} each). */
  restore(recent, me, players) {
    if (!Array.isArray(recent) || !recent.length) return;
    this.list.replaceChildren();
    this.lastBySeat = {};
    this.melds = { NS: new Map(), EW: new Map() };
    this.lastV = null;
    for (const entry of recent) this.addMove(entry.v, entry.events || [], me, players, null);
  }

  append(line, v) {
    const item = document.createElement("li");
    lineWithReason(item, line.text, line.reason);
    if (line.mine) item.className = "mine";
    else if (line.deal) item.className = "deal";
    item.dataset.v = String(v);
    this.list.append(item);
    while (this.list.children.length > MAX_LINES) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}

/** The rank of a meld from its cards (naturals give it; all wild: a wild meld). */
function rankOfGroup(group) {
  const natural = (group.cards || []).find((code) => code !== "JK" && code[0] !== "2");
  return natural ? natural[0] : "wild";
}
