// The room's JSON API, as the browser speaks it: the session cookie, and on every
// write the CSRF token echoed from the cardroom_csrf cookie (docs/api.md).

import { noteServerDate } from "./clock.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let onSignedOut = null;

/** What to do when the room says the session is over (401): sign in again. */
export function whenSignedOut(handler) {
  onSignedOut = handler;
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)cardroom_csrf=([^;]*)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(path, { method = "GET", body, signal, quiet401 = false } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, signal, credentials: "same-origin", cache: "no-store" };
  if (method !== "GET" && method !== "HEAD") {
    headers["X-CSRF-Token"] = csrfToken();
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The room cannot be reached; check your connection.");
  }
  noteServerDate(response.headers.get("Date"));
  if (response.status === 204) return null;
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    const failure = new ApiError(
      response.status,
      error.code || "http_" + response.status,
      error.message || `The room answered ${response.status}.`,
    );
    if (response.status === 401 && !quiet401 && onSignedOut) onSignedOut(failure);
    throw failure;
  }
  return data;
}

export const get = (path, options) => api(path, options);
export const post = (path, body, options = {}) => api(path, { ...options, method: "POST", body });
export const put = (path, body, options = {}) => api(path, { ...options, method: "PUT", body });
export const del = (path, body, options = {}) => api(path, { ...options, method: "DELETE", body });
