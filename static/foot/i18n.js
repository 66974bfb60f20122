/**
 * Translation helpers for the ES modules: thin wrappers over the globals that Django's
 * JavaScriptCatalog (/jsi18n/) defines, so a module still works (in English) without it.
 * The names gettext/ngettext/pgettext/npgettext are kept so that `makemessages -d djangojs`
 * finds the strings.
 */
import { formatNumber } from "./numbers.js";

const catalogue = globalThis;

export function gettext(msgid) {
  return typeof catalogue.gettext === "function" ? catalogue.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, count) {
  if (typeof catalogue.ngettext === "function") return catalogue.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** A text with a context: the same English words may need different words in another language. */
export function pgettext(context, msgid) {
  return typeof catalogue.pgettext === "function" ? catalogue.pgettext(context, msgid) : msgid;
}

export function npgettext(context, singular, plural, count) {
  if (typeof catalogue.npgettext === "function") return catalogue.npgettext(context, singular, plural, count);
  return count === 1 ? singular : plural;
}

/** Fills %(name)s placeholders (the same syntax as Django's interpolate with named=true);
 * numbers are written in the page's language (numbers.js). */
export function fmt(text, params) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in params ? formatNumber(params[key]) : whole));
}
