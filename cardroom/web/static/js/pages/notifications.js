// The notification centre: the notices the room keeps for the player
// (GET /api/me/notifications), newest first, older ones page by page ("More", with
// before_id). An unread notice can be marked read (POST .../read); opening a notice's
// table marks it read first, since the player has then seen what it told.

import { get, post } from "../api.js";
import { listenForNotices, markReady, showError, showUnreadNotices, startPage } from "../chrome.js";
import { $, $$, announce, h } from "../dom.js";
import { dateTime, plural } from "../format.js";

const PAGE = 20; // notices a page lists, and each "More" adds
let unread = 0;

function showUnread() {
  showUnreadNotices(unread); // the header's count follows the page's
  $("[data-unread-count]").textContent = unread
    ? `${plural(unread, "unread notification")}.`
    : "Everything is read.";
  $("[data-mark-all]").hidden = !$$("[data-notice][data-unread]").length;
}

function markedRead(item) {
  // The item stays where it is (newest first still holds); only its marks change.
  delete item.dataset.unread;
  item.classList.remove("unread");
  item.querySelector("[data-state]").textContent = "Read";
  item.querySelector("[data-mark-read]")?.remove();
}

async function markRead(notice, item) {
  const answer = await post(`/api/me/notifications/${notice.id}/read`);
  if (item.dataset.unread !== undefined) {
    unread = Math.max(0, unread - 1);
    markedRead(item);
  }
  showUnread();
  return answer;
}

async function markOne(notice, item, button) {
  button.disabled = true;
  try {
    await markRead(notice, item);
    announce(`Marked as read: ${notice.title}.`);
    item.querySelector("a, h2")?.focus();
  } catch (error) {
    button.disabled = false;
    showError($("[data-error]"), error);
  }
}

async function openTable(event, notice, item) {
  // Read before leaving: the next page's count must already know it. A failure to mark
  // it must not keep the player from their table.
  event.preventDefault();
  if (item.dataset.unread !== undefined) {
    try {
      await markRead(notice, item);
    } catch {
      // the table opens anyway; the notice stays unread
    }
  }
  location.assign(notice.url);
}

function noticeItem(notice) {
  const heading = `notice-${notice.id}-h`;
  const title = notice.game_id
    ? h("a", { href: notice.url, "data-open-table": "" }, notice.title)
    : notice.title;
  const item = h("li", {
    class: `notice-item${notice.read ? "" : " unread"}`,
    dataset: { notice: String(notice.id), ...(notice.read ? {} : { unread: "" }) },
    "aria-labelledby": heading,
  },
  h("p", { class: "notice-state", "data-state": "" }, notice.read ? "Read" : "Unread"),
  h("h2", { id: heading, class: "notice-title", tabindex: "-1" }, title),
  h("p", { class: "notice-body" }, notice.body),
  h("p", { class: "muted" }, h("time", { datetime: notice.created_at }, dateTime(notice.created_at)),
    notice.game_id ? ` · game #${notice.game_id}` : ""));
  const link = item.querySelector("[data-open-table]");
  if (link) link.addEventListener("click", (event) => openTable(event, notice, item));
  if (!notice.read) {
    // Described by its notice's title, so a screen reader says which one it marks.
    const button = h("button", { type: "button", "data-mark-read": "", "aria-describedby": heading }, "Mark as read");
    button.addEventListener("click", () => markOne(notice, item, button));
    item.append(h("p", { class: "row" }, button));
  }
  return item;
}

async function listNotices(before = null) {
  const query = before ? `?before_id=${before}&limit=${PAGE}` : `?limit=${PAGE}`;
  const page = await get(`/api/me/notifications${query}`);
  const items = page.notices.map(noticeItem);
  $("[data-notices]").append(...items);
  unread = page.unread;
  const more = $("[data-more-notices]");
  more.hidden = page.next_before_id === null;
  more.dataset.before = String(page.next_before_id || "");
  showUnread();
  return items;
}

async function markAll(button) {
  button.disabled = true;
  try {
    // Only the notices listed: the player marks what they can see.
    for (const item of $$("[data-notice][data-unread]")) {
      await post(`/api/me/notifications/${item.dataset.notice}/read`);
      unread = Math.max(0, unread - 1);
      markedRead(item);
    }
    announce("Every listed notification is marked as read.");
  } catch (error) {
    showError($("[data-error]"), error);
  } finally {
    button.disabled = false;
    showUnread();
  }
}

async function main() {
  await startPage();
  listenForNotices();
  $("[data-mark-all]").addEventListener("click", (event) => markAll(event.currentTarget));
  $("[data-more-notices]").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const items = await listNotices(button.dataset.before);
      announce(`${plural(items.length, "older notification")} listed.`);
      items[0]?.querySelector("h2").focus();
    } catch (error) {
      showError($("[data-error]"), error);
    } finally {
      button.disabled = false;
    }
  });
  try {
    const items = await listNotices();
    $("[data-notices-empty]").hidden = items.length > 0;
  } catch (error) {
    showError($("[data-error]"), error);
  }
  markReady();
}

main().catch((error) => showError($("[data-error]"), error));
