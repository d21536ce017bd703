// Create an account and sign straight in.

import { post } from "../api.js";
import { $, formValues } from "../dom.js";
import { keepNext, markReady, nextAddress, showError } from "../chrome.js";
import { applyPrefs } from "../prefs.js";

applyPrefs();
const form = $("[data-form]");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const { name } = formValues(form);
  const password = form.elements.password.value;
  const box = $("[data-error]");
  showError(box, null);
  if (!/^[A-Za-z0-9_-]{3,20}$/.test(name)) {
    showError(box, new Error("A name is 3 to 20 letters, digits, _ or -."));
    form.elements.name.focus();
    return;
  }
  if (password.length < 8) {
    showError(box, new Error("A password has at least 8 characters."));
    form.elements.password.focus();
    return;
  }
  if (password !== form.elements.again.value) {
    showError(box, new Error("The two passwords differ."));
    form.elements.again.focus();
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    // A room may ask for its invitation code (CARDROOM_SIGN_UP=invitation); sent only
    // when given, so an open room never sees the field.
    const invitation = form.elements.invitation.value.trim();
    const body = invitation ? { name, password, invitation } : { name, password };
    await post("/api/accounts/sign-up", body, { quiet401: true });
    await post("/api/accounts/sign-in", { name, password }, { quiet401: true });
    location.assign(nextAddress()); // an invite link, say: back to it, signed in
  } catch (error) {
    showError(box, error);
    button.disabled = false;
  }
});
keepNext($("[data-sign-in-link]"));
$("#name").focus();
markReady();
