// A finished game step by step from its stored actions: the table as each seat saw it, or with
// every hand open (GET /api/tables/{id}/replay?step=K&seat=S|all).

import { api, make, savedSeat } from "./api.js";
import { applyLabels, getLang, langButton, onLangChange, t } from "./i18n.js";
import { logLine, middle, richText, scoreTable, seatPanel, toldLine } from "./render.js";
import { icon } from "./icons.js";
import { tableTitle, touchOf } from "./touches/index.js";
import { paymentsTable } from "./settle.js";
import { said, wordsReady } from "./words.js";

const $ = (id) => document.getElementById(id);
const tid = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const R = { position: Number(params.get("step") || 0), seat: params.get("seat") || "all",
  snap: null, timer: null, info: null, loading: false, pending: null, deal: params.get("deal") };

async function go(position) {
  if (R.snap) position = Math.max(0, Math.min(position, R.snap.positions - 1));
  R.position = position;
  if (R.loading) { R.pending = position; return; }
  R.loading = true;
  try {
    // A deal asked for by its number (a live table's result links to it) opens at its start;
    // a seat held here replays its own view of a game still in play.
    const where = R.deal !== null ? `deal=${R.deal}&step=0` : `step=${position}`;
    R.deal = null;
    const seat = savedSeat(tid);
    R.snap = await api(`/api/tables/${encodeURIComponent(tid)}/replay?${where}&seat=${R.seat}`,
      { token: seat && seat.token });
    R.position = R.snap.position;
    draw();
  } catch (err) {
    $("r-action").textContent = err.message;
    stop();
  } finally {
    R.loading = false;
  }
  if (R.pending !== null) { const p = R.pending; R.pending = null; go(p); }
}

function draw() {
  const s = R.snap;
  if (!s) return;
  document.body.dataset.game = s.game;
  $("title").textContent = tableTitle(s.game, R.info && R.info.title, s.rules, R.info && R.info.preset);
  $("deal").textContent = t("r.deal", { n: s.deal + 1 });
  const slider = $("r-slider");
  slider.max = String(s.positions - 1);
  slider.value = String(s.position);
  $("r-step").textContent = t("r.step", { k: s.step, n: s.steps });
  $("r-action").replaceChildren(s.action ? richText("span", "", s.action) : t("r.dealt"));
  $("r-action").dataset.step = s.position;
  const seatSel = $("r-seat");
  if (seatSel.options.length !== s.names.length + 1) {
    seatSel.replaceChildren();
    const all = make("option", "", t("r.all"));
    all.value = "all";
    seatSel.appendChild(all);
    s.names.forEach((name, q) => {
      const o = make("option", "", t("r.as", { name }));
      o.value = String(q);
      seatSel.appendChild(o);
    });
    seatSel.value = R.seat;
  }
  const dealSel = $("r-deal");
  if (dealSel.options.length !== s.deal_starts.length) {
    dealSel.replaceChildren();
    s.deal_starts.forEach((p, d) => {
      const o = make("option", "", t("r.deal", { n: d + 1 }));
      o.value = String(p);
      dealSel.appendChild(o);
    });
  }
  dealSel.value = String(s.deal_starts[s.deal]);
  const table = s.table;
  const me = s.seat === "all" ? null : Number(s.seat);
  const others = $("others");
  others.replaceChildren();
  const n = table.names.length;
  for (let k = 0; k < n; k++) {
    const q = me === null ? k : (me + 1 + k) % n;
    if (q === me) continue;
    others.appendChild(seatPanel(table, q, { me }));
  }
  const touch = touchOf(s.game);
  const ctx = { view: null, table, lang: getLang(), t };
  $("middle-zones").replaceChildren(middle(table, touch.zone ? (z) => touch.zone(z, ctx) : null));
  $("prompt").replaceChildren(richText("span", "",
    table.moment ? said(table.moment.say || table.moment.prompt) : ""));
  const mine = $("my-area");
  mine.replaceChildren();
  if (me !== null) {
    const panel = seatPanel(table, me, { me: -1 });
    panel.classList.add("mine");
    mine.appendChild(panel);
  }
  const log = $("log");
  log.replaceChildren();
  for (const line of table.log || []) log.appendChild(logLine(toldLine(line, touch, { ...ctx, moves: [] })));
  const settle = $("r-settlement");
  const payments = s.settlement.length ? paymentsTable(table) : null;
  settle.hidden = !s.settlement.length;
  settle.replaceChildren();
  if (payments) settle.appendChild(payments);
  else if (s.settlement.length) {
    const ul = make("ul", "settlement-lines");
    for (const line of s.settlement) ul.appendChild(logLine(line));
    settle.appendChild(ul);
  }
  $("scoreboard").replaceChildren(scoreTable(s.scoreboard));
}

function stop() {
  if (R.timer) clearInterval(R.timer);
  R.timer = null;
  $("r-play").textContent = t("r.play");
}

function play() {
  if (R.timer) { stop(); return; }
  $("r-play").textContent = t("r.pause");
  R.timer = setInterval(() => {
    if (!R.snap || R.position >= R.snap.positions - 1) { stop(); return; }
    go(R.position + 1);
  }, 700);
}

async function init() {
  applyLabels(document);
  for (const b of document.querySelectorAll("button[data-icon]")) b.replaceChildren(icon(b.dataset.icon));
  langButton($("lang"));
  onLangChange(draw);
  await wordsReady;
  try {
    R.info = await api(`/api/tables/${encodeURIComponent(tid)}`);
    const games = await api("/api/games");
    const g = games.find((x) => x.name === R.info.game);
    if (g) {
      R.info.title = g.title;
      R.info.preset = g.presets.find((p) => p.name === R.info.rules) || null;
    }
  } catch (err) { $("r-action").textContent = err.message; return; }
  $("r-first").addEventListener("click", () => go(0));
  $("r-prev").addEventListener("click", () => go(R.position - 1));
  $("r-next").addEventListener("click", () => go(R.position + 1));
  $("r-last").addEventListener("click", () => go(R.snap ? R.snap.positions - 1 : 0));
  $("r-play").addEventListener("click", play);
  $("r-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("r-seat").addEventListener("change", (e) => { R.seat = e.target.value; go(R.position); });
  $("r-deal").addEventListener("change", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { e.preventDefault(); go(R.position + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go(R.position - 1); }
    else if (e.key === "Home") go(0);
    else if (e.key === "End" && R.snap) go(R.snap.positions - 1);
    else if (e.key === " ") { e.preventDefault(); play(); }
  });
  for (const b of document.querySelectorAll(".tabs button")) {
    b.addEventListener("click", () => {
      for (const x of document.querySelectorAll(".tabs button")) x.classList.toggle("active", x === b);
      for (const s of document.querySelectorAll(".tab")) s.classList.toggle("active", s.id === `tab-${b.dataset.tab}`);
    });
  }
  go(R.position);
}

window.hoolaReplay = { snapshot: () => R.snap, go };

init();
