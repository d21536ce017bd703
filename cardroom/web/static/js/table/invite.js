// The table's invite link, with a Copy button: friends who open it land at this table
// (signing in or up first), ready to take a seat. A private table is found only
// through it; a public one may be shared the same way.

import { get } from "../api.js";
import { $ } from "../dom.js";

const OVER = new Set(["finished", "cancelled"]);

/** The note under the heading: what the link does at this table. */
export function inviteNote(privateTable) {
  return privateTable
    ? "Private table: only people with this link can find it. Send it to the friends you want here."
    : "Anyone can find this table in the lobby; the link takes friends straight to it.";
}

/** Copy `text` to the clipboard: the browser's clipboard, else the selected field. */
async function copy(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field.select();
    return document.execCommand("copy");
  }
}

/**
 * Set up the invite section; the returned function shows or hides it for each state
 * of the table (hidden once the game is over). The link is asked for once.
 */
export function setUpInvite(gameId) {
  const box = $("[data-invite]");
  const field = $("[data-invite-link]");
  const said = $("[data-invite-copied]");
  let link = null;
  let status = null;
  const show = () => {
    box.hidden = !link || OVER.has(status);
    // While the table waits for players, inviting them is the thing to do: the
    // section stands above the felt, in the first view; once it deals, below the
    // actions, out of the way of the hand.
    const anchor = status === "waiting" ? $("[data-felt-wrap]") : $("[data-result]");
    if (anchor && box.nextElementSibling !== anchor) anchor.before(box);
  };
  $("[data-invite-copy]").addEventListener("click", async () => {
    if (!link) return;
    const done = await copy(link, field);
    said.textContent = done
      ? "Copied: paste it into a message to your friends."
      : "The browser would not copy it: select the link and copy it yourself.";
  });
  get(`/api/games/${gameId}/invite`).then(
    (invite) => {
      link = `${location.origin}${invite.path}`;
      field.value = link;
      $("[data-invite-note]").textContent = inviteNote(invite.private);
      show();
    },
    () => {}, // not shown: the table itself says what is wrong
  );
  return (game) => {
    status = game.summary.status;
    show();
  };
}
