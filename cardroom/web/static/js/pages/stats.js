// A player's statistics (GET /api/me/statistics): the figures over every table or one
// (the Table menu, or /stats?game=12), a table per game with its ledger, and the
// results graph drawn here as SVG from the running result hand by hand.

import { get } from "../api.js";
import { markReady, showError, startPage } from "../chrome.js";
import { $, announce, fill, h } from "../dom.js";
import { chips, money, plural } from "../format.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 220;
const PAD = 36;

let everything = null; // the answer over every table: the menu and the games' table

function percent(ratio) {
  if (ratio.percent === null) return "–";
  return `${ratio.percent.toFixed(1)}%`;
}

function ratioText(ratio) {
  return `${percent(ratio)} (${ratio.count} of ${ratio.chances})`;
}

/** Net over hands of both kinds: chips always; dollars for the money hands. */
function netText(figures, paysMoney) {
  if (paysMoney === true) return money(figures.net_cents);
  if (paysMoney === false) return `${chips(figures.net_chips, false)} points`;
  return `${figures.net_chips.toLocaleString("en-US")} chips`;
}

function figureList(figures) {
  const rows = [
    ["hands", "Hands played", String(figures.hands)],
    ["vpip", "VPIP", ratioText(figures.vpip)],
    ["pfr", "PFR", ratioText(figures.pfr)],
    ["three_bet", "Three-bet", ratioText(figures.three_bet)],
    ["wtsd", "Went to showdown", ratioText(figures.wtsd)],
    ["wsd", "Won at showdown", ratioText(figures.wsd)],
    ["net_chips", "Net, chips", figures.net_chips.toLocaleString("en-US")],
    ["net_cents", "Net, dollars", money(figures.net_cents)],
  ];
  return rows.map(([key, label, value]) => h("div", { class: "figure", dataset: { figure: key } },
    h("dt", {}, label), h("dd", {}, value)));
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

/** The running result over hands: a line from 0 through each hand's total. */
function drawGraph(points) {
  const totals = [0, ...points.map((p) => p.total)];
  const low = Math.min(0, ...totals);
  const high = Math.max(0, ...totals);
  const span = high - low || 1;
  const x = (i) => PAD + (i * (WIDTH - 2 * PAD)) / Math.max(1, totals.length - 1);
  const y = (v) => HEIGHT - PAD - ((v - low) * (HEIGHT - 2 * PAD)) / span;
  const last = totals[totals.length - 1];
  const graph = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "graph",
    "aria-label": `Results over ${plural(points.length, "hand")}: from 0 to ${last.toLocaleString("en-US")} chips, lowest ${low.toLocaleString("en-US")}, highest ${high.toLocaleString("en-US")}.`,
  });
  graph.append(svg("line", { x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0), class: "graph-zero" }));
  for (const [value, label] of [[high, high], [low, low]]) {
    const text = svg("text", { x: PAD - 4, y: y(value) + 4, class: "graph-label", "text-anchor": "end" });
    text.textContent = label.toLocaleString("en-US");
    graph.append(text);
  }
  const line = svg("polyline", {
    class: last >= 0 ? "graph-line up" : "graph-line down",
    points: totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    "data-points": String(points.length),
  });
  graph.append(line);
  const end = svg("text", { x: WIDTH - PAD, y: HEIGHT - 8, class: "graph-label", "text-anchor": "end" });
  end.textContent = `hand ${points.length}`;
  graph.append(end);
  return graph;
}

function gameLabel(game) {
  return `#${game.game_id} · ${game.preset} ${game.format.replace("_", "-")}`;
}

function showFigures(body, title) {
  $("[data-stats-title]").textContent = title;
  fill($("[data-figures]"), figureList(body.overall));
  fill($("[data-graph]"), drawGraph(body.graph));
  $("[data-graph-caption]").textContent = body.graph.length
    ? `The running result in chips after each of ${plural(body.graph.length, "hand")}, oldest first.`
    : "No hand yet.";
  $("[data-stats]").hidden = body.overall.hands === 0;
  $("[data-stats-empty]").hidden = body.overall.hands > 0;
}

function showGames(body) {
  const menu = $("[data-stats-game]");
  fill(menu, h("option", { value: "" }, "Every table"),
    body.games.map((g) => h("option", { value: String(g.game_id) }, gameLabel(g))));
  fill($("[data-stats-games]"), body.games.map((g) => h("tr", { dataset: { game: String(g.game_id) } },
    h("td", {}, h("a", { href: `/games/${g.game_id}` }, `Table #${g.game_id}`), ` ${g.preset}`),
    // data-label: on a phone the row is a grid without the header row, so each
    // figure says what it is ("VPIP 33.3%"), as the tiles above do
    h("td", { class: "num", "data-label": "Hands" }, String(g.hands)),
    h("td", { class: "num", "data-label": "VPIP" }, percent(g.vpip)),
    h("td", { class: "num", "data-label": "PFR" }, percent(g.pfr)),
    h("td", { class: "num", "data-label": "3-bet" }, percent(g.three_bet)),
    h("td", { class: "num", "data-label": "WTSD" }, percent(g.wtsd)),
    h("td", { class: "num", "data-label": "W$SD" }, percent(g.wsd)),
    h("td", { class: "num", "data-net": "", "data-label": "Net" }, netText(g, g.pays_money)),
    h("td", {}, h("a", { href: `/games/${g.game_id}/ledger` }, "Ledger")))));
  $("[data-stats-games-section]").hidden = body.games.length === 0;
}

async function choose(gameId) {
  const menu = $("[data-stats-game]");
  if (!gameId) {
    showFigures(everything, "Every table");
    history.replaceState(null, "", "/stats");
    return;
  }
  const body = await get(`/api/me/statistics?game=${encodeURIComponent(gameId)}`);
  const game = everything.games.find((g) => String(g.game_id) === String(gameId));
  showFigures(body, game ? `Table ${gameLabel(game)}` : `Table #${gameId}`);
  menu.value = String(gameId);
  history.replaceState(null, "", `/stats?game=${encodeURIComponent(gameId)}`);
}

async function main() {
  await startPage();
  const menu = $("[data-stats-game]");
  menu.addEventListener("change", async () => {
    try {
      showError($("[data-error]"), null);
      await choose(menu.value);
      announce(`Figures for ${menu.selectedOptions[0].textContent}.`);
    } catch (error) {
      showError($("[data-error]"), error);
    }
  });
  $("[data-stats-filter]").addEventListener("submit", (event) => event.preventDefault());
  try {
    everything = await get("/api/me/statistics");
    showGames(everything);
    showFigures(everything, "Every table");
    const asked = new URLSearchParams(location.search).get("game");
    if (asked) await choose(asked);
  } catch (error) {
    showError($("[data-error]"), error);
  }
  markReady();
}

main().catch((error) => showError($("[data-error]"), error));
