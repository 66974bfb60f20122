/**
 * Translation helpers for the ES modules: thin wrappers over the globals that Django's
 * JavaScriptCatalog (/jsi18n/) defines, so a module still works (in English) without it.
 * The names gettext/ngettext are kept so that `makemessages -d djangojs` finds the strings.
 */
const catalogue = globalThis;

export function gettext(msgid) {
  return typeof catalogue.gettext === "function" ? catalogue.gettext(msgid) : msgid;
}

export function ngettext(singular, plural, count) {
  if (typeof catalogue.ngettext === "function") return catalogue.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** Fills %(name)s placeholders (the same syntax as Django's interpolate with named=true). */
export function fmt(text, params) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in params ? String(params[key]) : whole));
}
