// Sign in, then go back where the visitor was going (a path on this site only).

import { post } from "../api.js";
import { $, formValues } from "../dom.js";
import { keepNext, markReady, nextAddress, showError } from "../chrome.js";
import { applyPrefs } from "../prefs.js";

export async function signIn(name, password) {
  return post("/api/accounts/sign-in", { name, password }, { quiet401: true });
}

applyPrefs();
const form = $("[data-form]");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const { name, password } = formValues(form);
  const box = $("[data-error]");
  showError(box, null);
  if (!name || !password) {
    showError(box, new Error("Enter your name and password."));
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await signIn(name, form.elements.password.value);
    location.assign(nextAddress());
  } catch (error) {
    showError(box, error.code === "not_signed_in" ? new Error("That name and password do not match.") : error);
    button.disabled = false;
    form.elements.password.select();
  }
});
keepNext($("[data-sign-up-link]"));
$("#name").focus();
markReady();
