// The lobby: open tables and your own, joining, leaving, starting and creating.

import { get, post } from "../api.js";
import { listenForNotices, markReady, refreshBalance, showError, showYourMove, startPage } from "../chrome.js";
import { everySecond, secondsUntil } from "../clock.js";
import { allowedSchedules, createRequest, practiceRequest } from "../create-game.js";
import { $, $$, announce, fill, formValues, h } from "../dom.js";
import { chips, countdown, duration } from "../format.js";
import { joinShortfall } from "../joining.js";
import { FORMAT_NAMES, PRESETS, statusBadge, blindsText, presetTitle } from "../rules.js";

let user = null;

function canJoin(game, mine) {
  if (mine || game.seats_taken >= game.seat_count) return false;
  if (game.status === "waiting") return true;
  return game.format !== "tournament"; // cash tables take players while they run
}

function gameRow(game, mine, balanceCents) {
  const box = $("[data-error]");
  const act = (path, done) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    showError(box, null);
    try {
      await post(`/api/games/${game.id}/${path}`, {});
      await done();
    } catch (error) {
      button.disabled = false;
      await load();
      showError(box, error); // after the reload, which must not wipe the reason
    }
  };
  const open = h("a", { class: "button", href: `/games/${game.id}` }, mine ? "Open" : "Watch");
  const buttons = [open];
  if (canJoin(game, mine)) {
    // The server prices the seat for this player (a rejoin may cost more); at a
    // points table nothing is paid and the button says the starting points.
    const cost = game.pays_money ? game.viewer_cost ?? game.buy_in : game.buy_in;
    const short = joinShortfall(cost, balanceCents, { paysMoney: game.pays_money, format: game.format });
    const note = short || (cost > game.buy_in
      ? `Rejoining within two hours costs ${chips(cost, game.pays_money)}, the larger of the buy-in and what you cashed out with.`
      : null);
    const noteId = `join-note-${game.id}`;
    const joined = act("join", () => location.assign(`/games/${game.id}`));
    buttons.push(
      h("button", {
        type: "button", class: "primary", disabled: Boolean(short), "aria-describedby": note ? noteId : null,
        onclick: async (event) => {
          const button = event.currentTarget;
          // The price may have changed since the list was read: ask the table first,
          // and say a new price instead of paying it unseen.
          button.disabled = true;
          let now = cost;
          try {
            // (a points table costs no money: its viewer_cost is 0, its button the points)
            if (game.pays_money) now = (await get(`/api/games/${game.id}`)).viewer_cost ?? cost;
          } catch {
            // the join itself will say what is wrong
          }
          if (now !== cost) {
            await load(); // the list now says the new price
            return;
          }
          button.disabled = false;
          await joined({ currentTarget: button });
        },
      }, `Join for ${chips(cost, game.pays_money)}`),
    );
    if (note) buttons.push(h("span", { class: "field-hint", id: noteId, "data-join-note": "" }, note));
  }
  if (mine && game.status === "waiting") {
    if (user && game.host_id === user.id) {
      buttons.push(
        h("button", {
          type: "button", class: "primary", disabled: game.seats_taken < 2,
          title: game.seats_taken < 2 ? "A game needs at least two players" : undefined,
          onclick: act("start", () => location.assign(`/games/${game.id}`)),
        }, "Start"),
      );
    }
    buttons.push(
      h("button", {
        type: "button", class: "danger",
        onclick: act("leave", async () => { announce(`You left game ${game.id}.`); await Promise.all([load(), refreshBalance()]); }),
      }, "Leave"),
    );
  }
  return h("tr", { dataset: game.your_turn ? { game: String(game.id), yourTurn: "" } : { game: String(game.id) } },
    h("td", { "data-label": "" },
      h("strong", {}, `#${game.id}`), " ", h("span", { class: "muted" }, `by ${game.host_name}`)),
    h("td", { "data-label": "" }, `${presetTitle(game.preset)} · ${FORMAT_NAMES[game.format] || game.format}`),
    h("td", { class: "num", "data-label": game.format === "tournament" ? "Entry" : "Buy-in" }, chips(game.buy_in, game.pays_money)),
    h("td", { "data-label": "Blinds" }, blindsText(game)),
    h("td", { "data-label": "Seats" }, `${game.seats_taken}/${game.seat_count}`),
    h("td", { "data-label": "Clock" }, game.your_turn ? yourMove(game) : duration(game.turn_clock_seconds)),
    h("td", { "data-label": "" }, statusBadge(game)),
    h("td", { class: "wide" }, h("div", { class: "actions" }, buttons)),
  );
}

/** The clock cell of a game waiting for the player: "Your move" and the time left. */
function yourMove(game) {
  return [
    h("strong", { class: "your-turn" }, "Your move"), " ",
    game.turn_due_at
      ? h("span", { "data-time-left": game.turn_due_at }, timeLeft(game.turn_due_at))
      : h("span", { class: "muted" }, "no clock"),
  ];
}

function timeLeft(due) {
  return `${countdown(secondsUntil(due))} left`;
}

function tickTimeLeft() {
  for (const cell of $$("[data-time-left]")) cell.textContent = timeLeft(cell.dataset.timeLeft);
}

let loading = null;
let loadAgain = false; // asked again while loading: the answer may miss a change
let loadFailed = false;
export async function load() {
  if (loading) {
    loadAgain = true;
    return loading;
  }
  loading = (async () => {
    try {
      const [lobby, mine, cents] = await Promise.all([get("/api/games"), get("/api/me/games"), refreshBalance()]);
      const myIds = new Set(mine.games.map((g) => g.id));
      showYourMove(mine.games);
      // The games waiting for the player's action first, the soonest clock first;
      // the rest keep the server's order (most recently active first).
      const order = (g) => (g.your_turn ? (g.turn_due_at ? Date.parse(g.turn_due_at) : Infinity) : NaN);
      const waiting = mine.games.filter((g) => g.your_turn).sort((a, b) => order(a) - order(b));
      const rest = mine.games.filter((g) => !g.your_turn);
      fill($("[data-mine]"), [...waiting, ...rest].map((g) => gameRow(g, true, cents)));
      tickTimeLeft();
      $("[data-mine-section]").hidden = mine.games.length === 0;
      const others = lobby.games.filter((g) => !myIds.has(g.id));
      fill($("[data-games]"), others.map((g) => gameRow(g, false, cents)));
      $("[data-empty]").hidden = others.length > 0;
      // Only the reload's own failure is cleared by a reload that works: a refused
      // command's reason stays until the player does something else.
      if (loadFailed) showError($("[data-error]"), null);
      loadFailed = false;
    } catch (error) {
      loadFailed = true;
      showError($("[data-error]"), error);
    } finally {
      loading = null;
      if (loadAgain) {
        loadAgain = false;
        load();
      }
    }
  })();
  return loading;
}

// Live: the room says "lobby_changed" when any listed table was created, joined,
// left, started or finished. Each page waits a moment, a little longer or shorter
// than the others, so a room's lobbies do not all ask in the same instant.
let lobbyTimer = 0;
function lobbyChanged() {
  if (lobbyTimer) return;
  lobbyTimer = setTimeout(() => {
    lobbyTimer = 0;
    load();
  }, 100 + Math.random() * 300);
}

// -- the create form ---------------------------------------------------------------

function updateForm(form) {
  const preset = PRESETS[form.elements.preset.value];
  const format = form.elements.format;
  const previous = format.value;
  fill(format, preset.formats.map((f) => h("option", { value: f, selected: f === previous }, FORMAT_NAMES[f])));
  // Bots sit only at points tables: say so where those are chosen.
  $("[data-preset-hint]").textContent = preset.points
    ? `${preset.blurb} Practice bots can take the free seats from the table, or use "Play against bots" above.`
    : preset.blurb;
  $("[data-buy-in-label]").textContent = preset.points
    ? "Starting points"
    : format.value === "tournament" ? "Entry ($)" : "Buy-in ($)";
  $("[data-buy-in-hint]").textContent = preset.points
    ? "Everyone starts with this many points; no money changes hands."
    : "At least $1.00; one chip per cent.";
  if (preset.points && form.elements.buy_in.value.includes(".")) form.elements.buy_in.value = "1000";
  if (!preset.points && !form.elements.buy_in.value.includes(".")) form.elements.buy_in.value = "10.00";
  for (const box of $$("[data-blinds]", form)) box.hidden = preset.blindsFixed;
  $("[data-blinds-hint]").textContent = preset.blindsFixed
    ? "Blinds: a fiftieth of the buy-in, fixed."
    : preset.blindsRequired
      ? "Arena tables need both blinds, in points."
      : "Leave the blinds empty for a big blind of a fiftieth of the buy-in.";
  const schedules = allowedSchedules(form.elements.preset.value, format.value);
  $("[data-schedule]", form).hidden = schedules.length === 0;
  for (const option of form.elements.schedule.options) {
    option.disabled = option.value !== "never" && !schedules.includes(option.value);
    if (form.elements.preset.value === "arena") option.disabled = option.value !== "hands";
  }
  if (form.elements.preset.value === "arena") form.elements.schedule.value = "hands";
  else if (form.elements.schedule.selectedOptions[0]?.disabled) form.elements.schedule.value = "never";
  const rising = form.elements.schedule.value !== "never";
  $("[data-every]", form).hidden = !rising;
  $("[data-rate]", form).hidden = !rising || form.elements.preset.value === "arena";
  $("[data-payouts]", form).hidden = format.value !== "tournament" || preset.points;
}

async function create(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const box = $("[data-create-error]");
  showError(box, null);
  let body;
  try {
    body = createRequest(formValues(form));
  } catch (error) {
    showError(box, error);
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const made = await post("/api/games", body);
    location.assign(`/games/${made.game_id}`);
  } catch (error) {
    showError(box, error);
    button.disabled = false;
  }
}

/** "Play against bots": a points table made, the bots seated, the table opened. */
async function playBots(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const box = $("[data-practice-error]");
  showError(box, null);
  const values = formValues(form);
  const button = form.querySelector("button[type=submit]");
  let made = null;
  button.disabled = true;
  try {
    const count = Number(values.count);
    made = await post("/api/games", practiceRequest(count));
    await post(`/api/games/${made.game_id}/bots`, { level: values.level, count });
    location.assign(`/games/${made.game_id}`);
  } catch (error) {
    showError(box, error);
    button.disabled = false;
    // made but the bots refused: the table's own form can seat them
    if (made) location.assign(`/games/${made.game_id}`);
  }
}

async function main() {
  user = await startPage();
  const form = $("[data-create]");
  form.addEventListener("change", () => updateForm(form));
  form.addEventListener("submit", create);
  $("[data-practice-form]").addEventListener("submit", playBots);
  updateForm(form);
  markReady();
  // Live: the room says when your games or the listed tables changed; a slow poll
  // covers a socket that cannot open (or a change between the first read and the
  // socket's opening, which it is asked for first to keep that short).
  listenForNotices({ onGamesChanged: () => load(), onLobbyChanged: lobbyChanged });
  await load();
  everySecond(tickTimeLeft);
  setInterval(() => {
    if (!document.hidden) load();
  }, 20000);
}

main();
