/** The client's three DOM helpers, defined once: an element by id, building an element, filling one. */

export const $ = (id) => document.getElementById(id);

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes (server/csp.py).
    else if (key === "style") element.style.cssText = value;
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : value);
  }
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

/** Replaces an element's children, skipping the nulls that conditional parts leave. */
export function fill(element, ...children) {
  element.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}
