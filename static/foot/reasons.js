/**
 * A computer's reason in the log: the words for the `reason` event's code and params (docs/PROTOCOL.md,
 * games/bots/reasons.py), and the log line that shows it when tapped (click, Enter or Space:
 * a small button on the line, and the whole line, for a tap). The reason is the bot's own, sent by the server; this module only
 * words it, in the page's language (numbers in its digits, through fmt).
 */
import { rankPlural } from "./cards.js";
import { fmt, gettext, npgettext, pgettext } from "./i18n.js";

const WORDS = {
  take_first_meld: (p) => fmt(npgettext("reason", "%(cards)s card, and the %(rank)s for the team's first meld",
    "%(cards)s cards, and the %(rank)s for the team's first meld", p.cards), { cards: p.cards, rank: rankPlural(p.rank) }),
  take_grow_meld: (p) => fmt(npgettext("reason", "%(cards)s card, and the %(rank)s grow the team's meld",
    "%(cards)s cards, and the %(rank)s grow the team's meld", p.cards), { cards: p.cards, rank: rankPlural(p.rank) }),
  take_pile: (p) => fmt(npgettext("reason", "%(cards)s card from the pile is worth more than two from the stock",
    "%(cards)s cards from the pile are worth more than two from the stock", p.cards), { cards: p.cards }),
  draw_pile_blocked: () => pgettext("reason", "a black three blocks the pile"),
  draw_stock: () => pgettext("reason", "the pile was not worth taking, or could not be taken"),
  first_meld: (p) => fmt(pgettext("reason", "%(points)s points take the team down (it needed %(minimum)s)"), p),
  go_out_wins_game: () => pgettext("reason", "the team's piles were complete, and going out wins the game"),
  go_out_partner_low: (p) => fmt(npgettext("reason", "the team's piles were complete, and the partner held only %(cards)s card",
    "the team's piles were complete, and the partner held only %(cards)s cards", p.cards), p),
  go_out_stock_low: (p) => fmt(npgettext("reason", "the team's piles were complete, and only %(cards)s card was left in the stock",
    "the team's piles were complete, and only %(cards)s cards were left in the stock", p.cards), p),
  go_out_opponents_close: () => pgettext("reason", "the team's piles were complete, and the opponents were close to going out"),
  go_out_last_card: () => pgettext("reason", "the team's piles were complete: out with the last card"),
  rush_to_foot: () => pgettext("reason", "melding everything reaches the foot"),
  complete_pile: (p) => ({
    clean: pgettext("reason", "it completes a clean pile (500)"),
    dirty: pgettext("reason", "it completes a dirty pile (300)"),
    wild: pgettext("reason", "it completes the wild pile (1500)"),
  })[p.pile],
  feed_wild_pile: () => pgettext("reason", "the wild cards go to the wild pile, worth 1500"),
  build_melds: () => pgettext("reason", "the naturals go onto the team's melds"),
  discard_black_three: () => pgettext("reason", "a black three blocks the pile for the next player"),
  discard_least_needed: (p) => fmt(pgettext("reason", "the %(rank)s were what the team needed least, and of least use to the next player"),
    { rank: rankPlural(p.rank) }),
  search_override: (p) => fmt(pgettext("reason", "it played out %(worlds)s possible deals: this came out about %(gain)s points better than the usual move"), p),
};

/** The words of a reason ({code, params}); "" for a code this page does not know (a newer server). */
export function reasonText(reason) {
  const words = reason && WORDS[reason.code];
  if (!words) return "";
  return words(reason.params || {}) || "";
}

/** A log line with a reason: the line's text is a button that shows or hides "Why: …" under it
 * (made only while shown, so the line's own text stays what it was). */
export function lineWithReason(item, text, reason) {
  const why = reasonText(reason);
  item.textContent = text;
  if (!why) return;
  // The line stays text (its words never clash with the action buttons' names, "Discard", "Meld");
  // a tap anywhere on it, or the small button for the keyboard and screen readers, shows the reason.
  const button = document.createElement("button");
  button.type = "button";
  button.className = "log-line";
  // The mark is drawn by CSS (::after): the line's own text stays the move's words alone.
  button.setAttribute("aria-label", gettext("Why this move?"));
  button.setAttribute("aria-expanded", "false");
  item.addEventListener("click", () => {
    const shown = item.querySelector(".log-reason");
    if (shown) shown.remove();
    else {
      const words = document.createElement("p");
      words.className = "log-reason";
      words.textContent = fmt(gettext("Why: %(reason)s."), { reason: why });
      item.append(words);
    }
    button.setAttribute("aria-expanded", String(!shown));
  });
  item.classList.add("has-reason");
  item.append(button);
}
