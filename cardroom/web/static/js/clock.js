// The room's clock, as well as the browser can tell it: deadlines come from the
// server, so countdowns use the offset between its Date header and ours.

let offsetMs = 0;

export function noteServerDate(header) {
  if (!header) return;
  const server = Date.parse(header);
  if (Number.isNaN(server)) return;
  // The header has whole seconds (cut, not rounded) and servers refresh it about once
  // a second, so it runs up to two seconds behind: trust it only for a clock that is
  // clearly wrong, and then aim for the middle of that window.
  const offset = server + 1000 - Date.now();
  if (Math.abs(offset) > 4000) offsetMs = offset;
  else offsetMs = 0;
}

export function serverNow() {
  return Date.now() + offsetMs;
}

/** Seconds until an ISO time (negative when past); null for no time. */
export function secondsUntil(iso) {
  if (!iso) return null;
  return (Date.parse(iso) - serverNow()) / 1000;
}

/** Call `tick` every second (aligned) until the returned stop() is called. */
export function everySecond(tick) {
  let timer = 0;
  const run = () => {
    tick();
    timer = setTimeout(run, 1000 - (Date.now() % 1000) + 5);
  };
  run();
  return () => clearTimeout(timer);
}
