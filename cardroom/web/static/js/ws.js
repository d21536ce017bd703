// WebSockets that stay up: reconnect with backoff, keep-alive pings, and for a
// game the numbered events with a resync after any gap or dropped connection, and
// the commands of play (act, continue) sent on the table's socket.

import { ApiError } from "./api.js";

const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 45000; // no message at all for this long: the socket is dead
// Closes that a reconnection cannot mend (docs/api.md): 4403 not allowed (a table
// whose host turned watching off, a suspended account), 4404 no such game.
const REFUSED = new Set([4403, 4404]);

export function socketAddress(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * A socket that reconnects. `onMessage(message)` gets each parsed message;
 * `onStatus(status)` gets "connecting", "open", "offline" or "closed", or
 * "refused" when the room closed it for good (4403, 4404): then it stops.
 * `onOpen(socket)` runs after each (re)connection, before any message.
 */
export class LiveSocket {
  constructor(path, { onMessage, onStatus = () => {}, onOpen = () => {} }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.timer = 0;
    this.pinger = 0;
    this.lastHeard = 0;
    this.reconnects = 0;
    this.online = () => this.reconnectNow();
    this.offline = () => this.onStatus("offline");
    this.visible = () => {
      if (!document.hidden && (!this.socket || this.socket.readyState > 1)) this.reconnectNow();
    };
    window.addEventListener("online", this.online);
    window.addEventListener("offline", this.offline);
    document.addEventListener("visibilitychange", this.visible);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.onStatus("connecting");
    const socket = new WebSocket(socketAddress(this.path));
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.onStatus("open");
      this.onOpen(this);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.keepAlive(), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type !== "pong") this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.pinger);
      this.socket = null;
      if (this.stopped) return;
      if (REFUSED.has(event.code)) {
        // The room said no (its error message said why): asking again would only
        // hear the same refusal, every few seconds for as long as the page is open.
        this.stop();
        this.onStatus("refused");
        return;
      }
      this.onStatus(navigator.onLine === false ? "offline" : "closed");
      this.scheduleReconnect();
    });
  }

  keepAlive() {
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
      this.drop();
      return;
    }
    this.send({ type: "ping" });
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    if (navigator.onLine === false) return; // the "online" event brings it back
    // 0.5 s, 1 s, 2 s ... up to 15 s, with a little jitter so a room's worth of
    // browsers do not all come back in the same millisecond after a restart.
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState <= 1) return;
    this.attempt = 0;
    this.connect();
  }

  /** Close the current socket as if the network dropped it (it comes back). */
  drop() {
    if (this.socket) {
      const old = this.socket;
      this.socket = null;
      clearInterval(this.pinger);
      old.close();
      this.onStatus("closed");
      this.scheduleReconnect();
    }
  }

  send(message) {
    if (this.socket && this.socket.readyState === 1) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener("online", this.online);
    window.removeEventListener("offline", this.offline);
    document.removeEventListener("visibilitychange", this.visible);
    if (this.socket) this.socket.close();
  }
}

/**
 * A game's socket. Calls `onSnapshot(game, seq)` with each snapshot (the table as
 * it is now) and `onEvents(events)` with each new event, once, in order, with no
 * gaps: when a message skips a number, when a snapshot is ahead of the events, or
 * after a reconnection, it asks for what it missed (`resync` after the last event
 * number it has) and the server answers with those events and a fresh snapshot.
 */
export class GameSocket {
  constructor(gameId, { onSnapshot, onEvents, onStatus = () => {}, onError = () => {}, onTable = null }) {
    this.eventSeq = null; // the last event handed to onEvents; null before the first snapshot
    this.shownSeq = -1; // the seq of the last snapshot handed to onSnapshot
    this.resyncing = false;
    this.heardSinceResync = false;
    this.onSnapshot = onSnapshot;
    this.onEvents = onEvents;
    this.onError = onError;
    this.pending = new Map(); // a command's ref -> its promise's settle functions
    this.refs = 0;
    this.onTable = onTable; // table messages (chat, watchers): asked for with ?chat=1
    this.live = new LiveSocket(`/ws/games/${gameId}${onTable ? "?chat=1" : ""}`, {
      onStatus: (status) => {
        if (status !== "open" && status !== "connecting") this.loseCommands();
        onStatus(status);
      },
      onOpen: () => {
        if (this.eventSeq !== null) this.resync(); // back after a drop
      },
      onMessage: (message) => this.receive(message),
    });
  }

  get lastSeq() {
    return this.eventSeq;
  }

  start() {
    this.live.connect();
    return this;
  }

  resync() {
    this.resyncing = true;
    this.heardSinceResync = false;
    this.live.send({ type: "resync", after: this.eventSeq || 0 });
  }

  /**
   * Send a command of play (`{type: "act" | "continue", ...}`, docs/api.md) on the
   * socket. Resolves with the answer the HTTP route would give, or rejects with an
   * ApiError of the same status and sentence. Resolves `undefined` when the command
   * could not go this way (the socket is not open, or closed before the answer; or
   * the session is over, which the HTTP route's 401 handles): the caller sends it
   * over HTTP with the same idempotency key, and it takes effect once.
   */
  command(message) {
    const ref = `c${++this.refs}`;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      if (!this.live.send({ ...message, ref })) {
        this.pending.delete(ref);
        resolve(undefined);
      }
    });
  }

  settle(message) {
    const waiting = this.pending.get(message.ref);
    if (!waiting) return;
    this.pending.delete(message.ref);
    if (message.type === "result") {
      waiting.resolve(message.result);
    } else if (message.status === 401) {
      waiting.resolve(undefined);
    } else {
      const error = message.error || {};
      waiting.reject(new ApiError(message.status, error.code, error.message));
    }
  }

  loseCommands() {
    for (const waiting of this.pending.values()) waiting.resolve(undefined);
    this.pending.clear();
  }

  receive(message) {
    if (message.type === "result" || message.type === "refused") this.settle(message);
    else if (message.type === "events") this.receiveEvents(message.events || []);
    else if (message.type === "snapshot") this.receiveSnapshot(message);
    else if (message.type === "error") this.onError(message.message);
    else if (this.onTable) this.onTable(message);
  }

  receiveEvents(list) {
    if (this.eventSeq === null) return; // the first snapshot sets where events start
    if (this.resyncing) this.heardSinceResync = true;
    const fresh = list.filter((e) => e.seq > this.eventSeq);
    if (!fresh.length) return;
    const contiguous = [];
    let next = this.eventSeq + 1;
    for (const event of fresh) {
      if (event.seq !== next) break;
      contiguous.push(event);
      next += 1;
    }
    if (contiguous.length) {
      this.eventSeq = contiguous[contiguous.length - 1].seq;
      this.onEvents(contiguous);
    }
    if (contiguous.length < fresh.length && !this.resyncing) this.resync();
  }

  receiveSnapshot(message) {
    if (message.seq >= this.shownSeq) {
      this.shownSeq = message.seq;
      this.onSnapshot(message.game, message.seq);
    }
    if (this.eventSeq === null) {
      this.eventSeq = message.seq;
      return;
    }
    if (message.seq <= this.eventSeq) {
      this.resyncing = false; // caught up
    } else if (!this.resyncing || this.heardSinceResync) {
      this.resync(); // events are missing (or the answer came in pages): ask again
    }
  }

  drop() {
    this.live.drop();
  }

  stop() {
    this.live.stop();
  }
}
