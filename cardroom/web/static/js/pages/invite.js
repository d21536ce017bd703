// An invite link, /invite/<token>: signed in, the link is opened (the room remembers
// the visitor at a private table) and the browser goes on to the table, ready to take
// a seat; signed out, the visitor signs in or signs up and comes back here.

import { post } from "../api.js";
import { $ } from "../dom.js";
import { markReady, showError, startPage } from "../chrome.js";

/** The token of an address such as /invite/AbC-12_x. */
export function inviteToken(path = location.pathname) {
  const match = path.match(/^\/invite\/([^/]+)\/?$/);
  return match ? decodeURIComponent(match[1]) : "";
}

async function main() {
  await startPage({ signedIn: false });
  const token = inviteToken();
  const here = location.pathname;
  try {
    const invite = await post(`/api/invites/${encodeURIComponent(token)}`, {}, { quiet401: true });
    location.replace(invite.table_path);
  } catch (error) {
    $("[data-invite-status]").textContent = "";
    if (error.status === 401) {
      const next = `?next=${encodeURIComponent(here)}`;
      $("[data-invite-sign-up]").setAttribute("href", `/sign-up${next}`);
      $("[data-invite-sign-in-link]").setAttribute("href", `/sign-in${next}`);
      $("[data-invite-sign-in]").hidden = false;
    } else {
      showError($("[data-error]"), error);
      $("[data-invite-lobby]").hidden = false;
    }
  }
  markReady();
}

main();
