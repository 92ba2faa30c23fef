// The server's HTTP API, the seats' tokens kept per table in localStorage, the server's clock.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** JSON from the server; an ApiError carrying the server's code and one-line message. */
export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers,
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("network", "The server cannot be reached", 0);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    let message = (data && data.message) || `${response.status} ${response.statusText}`;
    if (Array.isArray(data && data.detail)) {  // FastAPI's own validation answer
      message = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    throw new ApiError((data && data.code) || "http", message, response.status);
  }
  return data;
}

const SEAT_KEY = (tid) => `hoola.seat.${tid}`;

/** The seat this browser holds at a table: {token, seat, name, host, invite} or null. */
export function savedSeat(tid) {
  try { return JSON.parse(localStorage.getItem(SEAT_KEY(tid)) || "null"); } catch { return null; }
}

export function saveSeat(tid, seat) { localStorage.setItem(SEAT_KEY(tid), JSON.stringify(seat)); }

export function forgetSeat(tid) { localStorage.removeItem(SEAT_KEY(tid)); }

export function savedName() { return localStorage.getItem("hoola.name") || ""; }

export function saveName(name) { localStorage.setItem("hoola.name", name); }

/** The offset of the server's clock from ours (seconds), from /api/time and the round trip. */
let offset = 0;
export async function syncClock() {
  try {
    const before = Date.now();
    const data = await api("/api/time");
    const after = Date.now();
    offset = data.now - (before + after) / 2000;
  } catch { offset = 0; }
  return offset;
}

/** The server's time now (Unix seconds). */
export function serverNow() { return Date.now() / 1000 + offset; }

/** The WebSocket address of a table on this server. */
export function wsUrl(tid) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/${encodeURIComponent(tid)}`;
}

/** The bot strengths a person chooses from (the engine's kinds stay for the API and tests). */
export const BOT_LEVELS = ["beginner", "easy", "medium", "hard", "master"];

/** What a seat may be given: a strength level, or the trained network (``learned``: where a
 * game or table size has no weights, the expert plays in its place). */
export const SEAT_BOTS = [...BOT_LEVELS, "learned"];

export const BOT_KINDS = ["beginner", "easy", "medium", "hard", "master", "random", "expert",
  "ismcts"];

/** Plain text into an element (never HTML). */
export function text(node, value) { node.textContent = value == null ? "" : String(value); return node; }

/** A new element with a class and optional text. */
export function make(tag, cls = "", value = null) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (value !== null) node.textContent = value;
  return node;
}
