/** Every page: the language menu switches at once (its button stays for pages without scripts). */
const form = document.querySelector("form.language");
if (form) {
  const select = form.querySelector("select");
  form.querySelector("button").classList.add("visually-hidden");
  select.addEventListener("change", () => form.submit());
}
