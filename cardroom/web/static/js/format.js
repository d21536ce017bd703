// Money, chips, durations and dates, as players read them.

/** 1250 -> "$12.50"; -5 -> "−$0.05". Cents are whole numbers everywhere. */
export function money(cents) {
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** Chips at a table: money at money tables (1 chip = 1 cent), points at arena tables. */
export function chips(amount, paysMoney = true) {
  if (!paysMoney) return `${amount.toLocaleString("en-US")}`;
  return money(amount);
}

/** "$1.00" or "12.5" or "12" -> cents; null when it is not an amount. */
export function parseMoney(text) {
  const clean = String(text).trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d+(\.\d{0,2})?$/.test(clean)) return null;
  const [whole, part = ""] = clean.split(".");
  return Number(whole) * 100 + Number(part.padEnd(2, "0"));
}

/** Seconds left -> "1:05", "0:09", "2 h 05 min", "3 d 4 h". */
export function countdown(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) {
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  }
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A clock setting: 120 -> "2 min", 30 -> "30 s", null -> "no clock". */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "no clock";
  if (seconds % 86400 === 0) return `${seconds / 86400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export function dateTime(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
