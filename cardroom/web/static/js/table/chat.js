// The table's chat and its watchers' count (docs/ui.md, "Table chat"). Every message
// is written with textContent (through dom.js's h, which never parses HTML): what a
// player typed is shown as the text it is, markup included, and runs nothing.
//
// The table's socket (ws.js, opened with ?chat=1) hands over the table messages:
// {type: "chat", message}, {type: "chat_deleted", id}, {type: "chat_switched", on},
// {type: "watchers", count}. The last 100 messages come from GET /api/games/{id}/chat
// on opening the page and after a reconnection (what was said meanwhile).

import { ApiError, del, get, post } from "../api.js";
import { $, fill, h } from "../dom.js";

const MAX_CHARS = 500;
const KEEP = 100; // the messages a page holds, as the server sends on opening
const MUTE_REASON = "Muted from the table's chat.";
const DELETE_REASON = "Removed from the table's chat by an admin.";

export function watchersText(count) {
  if (!count) return "Nobody watching";
  return count === 1 ? "1 watching" : `${count} watching`;
}

export class TableChat {
  /** root: the [data-chat] section; me: /api/me; hostId: the table's host. */
  constructor(root, gameId, me, hostId) {
    this.root = root;
    this.gameId = gameId;
    this.me = me;
    this.hostId = hostId;
    this.messages = new Map(); // id -> message, in the order said
    this.socketCounted = false; // a watchers' count came on the socket
    this.list = $("[data-chat-list]", root);
    this.form = $("[data-chat-form]", root);
    this.input = $("[data-chat-text]", root);
    this.note = $("[data-chat-note]", root);
    this.error = $("[data-chat-error]", root);
    this.watchers = $("[data-watchers]", root);
    this.switch = $("[data-chat-switch]", root);
    this.input.maxLength = MAX_CHARS;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    const mayRun = me.role === "admin" || me.id === hostId;
    $("[data-chat-host]", root).hidden = !mayRun;
    this.switch.addEventListener("change", () => this.turn(this.switch.checked));
  }

  get admin() {
    return this.me.role === "admin";
  }

  async load() {
    try {
      const chat = await get(`/api/games/${this.gameId}/chat`);
      this.messages.clear();
      for (const message of chat.messages) this.messages.set(message.id, message);
      this.showState(chat);
      // The socket's count is the fresher: this answer may have left the server
      // before the socket's own watcher was counted.
      if (!this.socketCounted) this.showWatchers(chat.watchers);
      this.render();
      this.root.hidden = false;
    } catch (error) {
      this.fail(error);
    }
  }

  /** A table message from the socket; false if it is none of the chat's. */
  receive(message) {
    if (message.type === "chat") {
      this.messages.set(message.message.id, message.message);
      while (this.messages.size > KEEP) this.messages.delete(this.messages.keys().next().value);
      this.render();
    } else if (message.type === "chat_deleted") {
      this.messages.delete(message.id);
      this.render();
    } else if (message.type === "chat_switched") {
      this.load(); // whether this viewer may write follows from it: ask the server
    } else if (message.type === "watchers") {
      this.socketCounted = true;
      this.showWatchers(message.count);
    } else {
      return false;
    }
    return true;
  }

  showState(chat) {
    this.switch.checked = chat.on;
    this.form.hidden = !chat.may_send;
    this.note.textContent = chat.may_send ? "" : chat.why_not || "";
    this.note.hidden = chat.may_send;
  }

  showWatchers(count) {
    this.watchers.textContent = watchersText(count);
    this.watchers.dataset.count = String(count);
  }

  render() {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    fill(this.list, [...this.messages.values()].map((m) => this.line(m)));
    if (!this.messages.size) this.list.append(h("li", { class: "muted chat-empty" }, "No messages yet."));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  line(message) {
    const tools = [];
    if (this.admin) {
      tools.push(
        h("button", {
          type: "button", class: "chat-tool", "aria-label": `Delete ${message.name}'s message`,
          onclick: () => this.remove(message),
        }, "Delete"),
      );
      if (message.user_id !== this.me.id) {
        tools.push(
          h("button", {
            type: "button", class: "chat-tool", "aria-label": `Mute ${message.name} at this table`,
            onclick: () => this.mute(message),
          }, "Mute"),
        );
      }
    }
    return h("li", { class: "chat-line", dataset: { message: String(message.id) } },
      h("span", { class: "chat-name" }, message.name), " ",
      h("span", { class: "chat-text" }, message.text),
      tools);
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.error.textContent = "";
    try {
      const message = await post(`/api/games/${this.gameId}/chat`, { text });
      this.input.value = "";
      this.receive({ type: "chat", message }); // the socket's copy changes nothing
    } catch (error) {
      this.fail(error);
    }
  }

  async turn(on) {
    this.error.textContent = "";
    try {
      await post(`/api/games/${this.gameId}/chat/switch`, { on });
      await this.load();
    } catch (error) {
      this.switch.checked = !on;
      this.fail(error);
    }
  }

  async remove(message) {
    this.error.textContent = "";
    const reason = encodeURIComponent(DELETE_REASON);
    try {
      await del(`/api/games/${this.gameId}/chat/${message.id}?reason=${reason}`);
      this.receive({ type: "chat_deleted", id: message.id });
    } catch (error) {
      this.fail(error);
    }
  }

  async mute(message) {
    this.error.textContent = "";
    try {
      await post("/api/admin/chat/mute", { user_id: message.user_id, game_id: this.gameId, reason: MUTE_REASON });
      this.error.textContent = "";
      this.note.hidden = false;
      this.note.textContent = `${message.name} is muted at this table.`;
    } catch (error) {
      this.fail(error);
    }
  }

  fail(error) {
    this.error.textContent = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  }
}
