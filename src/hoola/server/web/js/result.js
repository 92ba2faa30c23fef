// The result screen's own part, under the settlement the page draws: between two deals the
// countdown to the next one, Continue, who is still reading, the deal's log and its replay; at
// the end of the match its winner, Rematch (a new table, the same seats, bots and options), Back
// to the lobby, the match's replay and its record.

import { api, make, saveSeat, serverNow } from "./api.js";
import { errorText, t } from "./i18n.js";
import { logLine } from "./render.js";
import { said } from "./words.js";

const $ = (id) => document.getElementById(id);
const R = { page: null, rematch: null, log: [], logDeal: null, timer: null };

/** ``page``: what the table page lends: ``tid``, ``msg()`` (the state), ``seat()`` (the seat held
 * here), ``send(message)``, ``toast(text, kind)``, ``shown()`` (the result shown: {deal, final}),
 * ``rated()`` (a rated table has no rematch here). */
export function initResult(page) {
  R.page = page;
  R.timer = setInterval(tick, 250);
}

/** Keep the deal's log lines while the finished deal is on the table (a new deal wipes them). */
export function keepLog(deal) {
  const lines = [...document.querySelectorAll("#log li")].map((li) => li.textContent);
  if (lines.length || R.logDeal !== deal) { R.log = lines; R.logDeal = deal; }
}

/** A rematch has been made (``rematch`` message): Rematch now joins it. */
export function rematchMade(tableId) {
  R.rematch = tableId;
  draw();
}

function winnerLine(board) {
  if (!board) return "";
  const m = board.moment;
  if (m && m.phase === "over" && (m.say || m.prompt)) return said(m.say || m.prompt);
  // A match of so many deals: the most money (or points) over them, the last figure of each.
  const names = board.names || [];
  const teams = board.teams;
  const lines = (board.scores || []).filter((s) => s.values.length === names.length ||
    (teams && s.values.length === teams.length));
  if (!lines.length) return "";
  const values = lines[lines.length - 1].values.map(Number);
  const best = Math.max(...values);
  const who = values.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0)
    .map((i) => (values.length === names.length ? names[i] : teams[i].map((q) => names[q]).join(" + ")));
  return t(who.length > 1 ? "res.tie" : "res.winner", { name: who.join(", ") });
}

/** Draw the result's own part for the state now (call after the settlement is drawn). */
export function draw() {
  const box = $("result-extra");
  if (!box || !R.page) return;
  const msg = R.page.msg();
  const shown = R.page.shown();
  box.replaceChildren();
  if (!msg || !shown) return;
  const tid = R.page.tid;
  const seat = R.page.seat();
  const pause = msg.between && msg.between.deal === shown.deal ? msg.between : null;
  box.dataset.state = shown.final ? "final" : pause ? "pause" : "done";
  if (shown.final) {
    const line = winnerLine(msg.scoreboard);
    if (line) box.appendChild(make("p", "match-winner", line));
    const row = make("div", "result-actions");
    if (seat && !(R.page.rated && R.page.rated())) {
      const again = make("button", "primary", t(R.rematch ? "res.rematch-join" : "res.rematch"));
      again.id = "result-rematch";
      again.addEventListener("click", rematch);
      row.appendChild(again);
    }
    const lobby = make("a", "button", t("res.lobby"));
    lobby.id = "result-lobby";
    lobby.href = "/";
    const record = make("a", "button", t("res.record"));
    record.id = "result-record";
    record.href = `/api/tables/${encodeURIComponent(tid)}/record`;
    record.setAttribute("download", `hoola-${tid}.toml`);
    row.append(lobby, record);
    box.appendChild(row);
  } else if (pause) {
    const row = make("div", "result-actions");
    const count = make("span", "next-in");
    count.id = "result-countdown";
    count.dataset.deadline = String(pause.deadline);
    row.appendChild(count);
    const mine = seat && msg.seat !== null && msg.seat !== undefined ? msg.seat : null;
    if (mine !== null && pause.waiting.includes(mine)) {
      const go = make("button", "primary", t("res.continue"));
      go.id = "result-continue";
      go.addEventListener("click", () => {
        if (R.page.send({ type: "continue" })) go.disabled = true;
      });
      row.appendChild(go);
    } else if (mine !== null) {
      row.appendChild(make("span", "muted", t("res.ready")));
    }
    box.appendChild(row);
    const others = pause.waiting.filter((q) => q !== mine).map((q) => msg.names[q]);
    if (others.length) {
      const wait = make("p", "muted waiting-for", t("res.waiting-for", { names: others.join(", ") }));
      wait.id = "result-waiting";
      box.appendChild(wait);
    }
  }
  if (!shown.final && seat) {
    // The finished deal's replay as this seat saw it (the others' are theirs until the end).
    const replay = make("a", "button", t("res.replay-deal"));
    replay.id = "result-replay-deal";
    replay.href = `/replay/${encodeURIComponent(tid)}?deal=${shown.deal}&seat=${msg.seat}`;
    replay.target = "_blank";
    const row = box.querySelector(".result-actions");
    if (row) row.appendChild(replay); else box.appendChild(replay);
  }
  // The deal's log, under the settlement (the result's own part stands above it, by Continue).
  const body = $("result-body");
  for (const old of body.querySelectorAll(".result-log")) old.remove();
  if (R.log.length && R.logDeal === shown.deal) {
    const details = make("details", "result-log");
    details.appendChild(make("summary", "", t("res.log")));
    const list = make("ol", "log");
    for (const line of R.log) list.appendChild(logLine(line));
    details.appendChild(list);
    body.appendChild(details);
  }
  tick();
}

function tick() {
  const node = $("result-countdown");
  if (!node) return;
  const left = Math.max(0, Math.ceil(Number(node.dataset.deadline) - serverNow()));
  node.textContent = t("res.next-in", { s: left });
  node.dataset.left = String(left);
}

async function rematch() {
  const seat = R.page.seat();
  if (!seat) return;
  try {
    const got = await api(`/api/tables/${encodeURIComponent(R.page.tid)}/rematch`,
      { method: "POST", token: seat.token });
    saveSeat(got.table_id, { ...seat, seat: got.seat, invite: got.invite });
    location.href = `/table/${encodeURIComponent(got.table_id)}`;
  } catch (err) {
    R.page.toast(errorText(err.code, err.message), "bad");
  }
}
