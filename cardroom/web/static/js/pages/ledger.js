// A table's ledger (GET /api/games/{id}/ledger) at /games/{id}/ledger: each player's
// buy-ins, rebuys, cash-outs and net, a tournament's places and prizes, who pays whom,
// and the same as a CSV download (…/ledger.csv).

import { get } from "../api.js";
import { markReady, setTitle, showError, startPage } from "../chrome.js";
import { $, fill, h } from "../dom.js";
import { chips } from "../format.js";

const COLUMNS = [
  ["buy_ins", "Buy-ins"],
  ["rebuys", "Rebuys"],
  ["cash_outs", "Cash-outs"],
  ["refunds", "Refunds"],
  ["settlements", "Hand results"],
  ["prizes", "Prizes"],
  ["on_table", "On the table"],
  ["net", "Net"],
];

/** The columns worth showing: those with a figure, and always buy-ins and net. */
function columnsOf(ledger) {
  return COLUMNS.filter(([key]) => key === "buy_ins" || key === "net"
    || ledger.players.some((p) => p[key] !== 0));
}

function render(ledger) {
  const amount = (n) => chips(n, ledger.pays_money);
  const tournament = ledger.format === "tournament";
  const columns = columnsOf(ledger);
  fill($("[data-ledger-head]"), h("tr", {},
    h("th", {}, "Player"),
    tournament ? h("th", { class: "num" }, "Place") : null,
    columns.map(([, label]) => h("th", { class: "num" }, label))));
  const players = tournament
    ? [...ledger.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99))
    : ledger.players;
  fill($("[data-ledger-players]"), players.map((p) => h("tr", { dataset: { player: String(p.user_id) } },
    h("td", {}, p.name, p.seat === null ? h("span", { class: "muted" }, " (left)") : ""),
    tournament ? h("td", { class: "num", "data-place": "" }, p.place === null ? "–" : String(p.place)) : null,
    columns.map(([key]) => h("td", { class: "num", dataset: { column: key } }, amount(p[key]))))));
  const payments = ledger.payments.map((p) => h("li", { dataset: { payer: String(p.payer_id), payee: String(p.payee_id) } },
    `${p.payer} pays ${p.payee} `, h("strong", { "data-amount": "" }, amount(p.amount))));
  fill($("[data-ledger-payments]"), payments.length ? payments : h("li", { class: "muted" }, "Nobody owes anybody."));
  const notes = [];
  if (!ledger.pays_money) notes.push("An arena table plays for points: no money moves, so its ledger has only the places.");
  if (ledger.status === "running" || ledger.status === "paused") {
    notes.push("The game is still being played: chips on the table count as if cashed out now.");
  }
  if (ledger.unsettled) notes.push(`The nets do not add up to zero by ${amount(ledger.unsettled)}: that much is left unsettled.`);
  $("[data-ledger-note]").textContent = notes.join(" ");
  $("[data-ledger-csv]").setAttribute("href", `/api/games/${ledger.game_id}/ledger.csv`);
  $("[data-ledger]").hidden = false;
}

async function main() {
  await startPage();
  const match = location.pathname.match(/^\/games\/(\d+)\/ledger$/);
  const gameId = match ? match[1] : "";
  const title = `Ledger · table #${gameId}`;
  $("[data-ledger-title]").textContent = title;
  $("[data-back-to-table]").href = `/games/${gameId}`;
  $("[data-table-hands]").href = `/games/${gameId}/history`;
  setTitle(`${title} · Cardroom`);
  try {
    render(await get(`/api/games/${gameId}/ledger`));
  } catch (error) {
    showError($("[data-error]"), error);
  }
  markReady();
}

main().catch((error) => showError($("[data-error]"), error));
