/**
 * Every number the page shows goes through here, so that it is written in the page's language:
 * Bengali pages in Bengali digits (১২৩), German ones with German grouping (1.250).
 * The language is the page's own (<html lang>), the one the server rendered it in.
 */
const formatters = new Map();

export function pageLanguage() {
  return (document.documentElement.lang || "en").toLowerCase();
}

/** An Intl locale for the language; Bengali asks for Bengali digits explicitly if the default gives others. */
export function numberLocale(lang) {
  if (!lang.startsWith("bn")) return lang;
  try {
    return /[০-৯]/.test(new Intl.NumberFormat(lang).format(1)) ? lang : `${lang}-u-nu-beng`;
  } catch (error) {
    return "bn-u-nu-beng";
  }
}

function formatter(lang) {
  if (!formatters.has(lang)) {
    let made;
    // No grouping: scores read as the page always wrote them (3100), only the digits follow the language.
    try { made = new Intl.NumberFormat(numberLocale(lang), { useGrouping: false }); } catch (error) { made = new Intl.NumberFormat("en", { useGrouping: false }); }
    formatters.set(lang, made);
  }
  return formatters.get(lang);
}

/** A number in the page's language ("১২৩"); anything that is not a finite number is shown as it is. */
export function formatNumber(value, lang = pageLanguage()) {
  return typeof value === "number" && Number.isFinite(value) ? formatter(lang).format(value) : String(value ?? "");
}

/** "A, B and C" in the page's language (Intl.ListFormat; a plain join where it is missing). */
export function joinList(parts, lang = pageLanguage()) {
  if (parts.length < 2) return parts.join("");
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(parts);
  } catch (error) {
    return parts.join(", ");
  }
}

/** A moment's hour and minute ("00:10", German "00:10", Bengali "০০:১০"), in UTC or the browser's own zone. */
export function formatClock(moment, { utc = false } = {}, lang = pageLanguage()) {
  const options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", ...(utc ? { timeZone: "UTC" } : {}) };
  try {
    return new Intl.DateTimeFormat(numberLocale(lang), options).format(moment);
  } catch (error) {
    const [hours, minutes] = utc ? [moment.getUTCHours(), moment.getUTCMinutes()] : [moment.getHours(), moment.getMinutes()];
    return `${formatNumber(hours).padStart(2, formatNumber(0))}:${formatNumber(minutes).padStart(2, formatNumber(0))}`;
  }
}

/** A day and a span relative to now in the page's language: "tomorrow", "in 24 hours", "heute",
 * "২৪ ঘণ্টায়" (Intl.RelativeTimeFormat; English words where it is missing). */
export function relativeTime(value, unit, lang = pageLanguage()) {
  try {
    return new Intl.RelativeTimeFormat(numberLocale(lang), { numeric: "auto" }).format(value, unit);
  } catch (error) {
    return `in ${value} ${unit}s`;
  }
}

/** A weekday and date in the page's language ("Mon 8 Dec"), for a day that is neither today nor tomorrow. */
export function formatDay(moment, lang = pageLanguage()) {
  try {
    return new Intl.DateTimeFormat(numberLocale(lang), { weekday: "short", day: "numeric", month: "short" }).format(moment);
  } catch (error) {
    return moment.toDateString();
  }
}
