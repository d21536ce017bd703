// Preferences kept in this browser: the four-colour deck and turn notifications.

const KEY = "cardroom.prefs";
const DEFAULTS = { fourColour: false, turnNotifications: false, sound: false };

export function prefs() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function setPref(name, value) {
  const next = { ...prefs(), [name]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private browsing: the choice lasts for this page only
  }
  applyPrefs(next);
  return next;
}

export function applyPrefs(p = prefs()) {
  document.documentElement.classList.toggle("four-colour", Boolean(p.fourColour));
}
