// A tournament's page (/tournament/{id}): entries and the start while it is open; then the
// standings, the tables of each round or stage (each to watch, or to take one's own seat at),
// the byes, Blackpool's buy-in queue and pot, and what happened. It asks the server for news
// after the version it has seen (the server answers when the tournament changes).

import "./account-texts.js";
import { api, make, saveSeat, savedName, saveName, serverNow, syncClock } from "./api.js";
import { applyLabels, errorText, langButton, onLangChange, t } from "./i18n.js";
import { savedEntry, saveEntry } from "./tournament-lobby.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
let data = null;

function mine() { return savedEntry(id); }

function stageName(table) {
  return t(`tn.stage.${table.stage}`, { r: table.round });
}

function renderHead() {
  $("tn-name").textContent = data.name || `${t(`tn.${data.format}`)} · ${data.game}`;
  $("tn-status").textContent = t(`tn.${data.status}`);
  const settings = Object.entries(data.settings).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join("/") : v}`);
  const options = Object.entries(data.options || {}).map(([k, v]) => `${k}=${v}`);
  $("tn-what").textContent = [t(`tn.${data.format}`), `${data.game} (${data.rules})`,
    t("tn.entered", { n: data.entrants, m: data.size }), ...settings, ...options].join(" · ");
  $("tn-winner").hidden = !data.winner;
  if (data.winner) $("tn-winner").textContent = `🏆 ${t("tn.winner", { name: data.winner })}`;
  const record = $("tn-record");
  record.hidden = data.status !== "over";
  record.href = `/api/tournaments/${encodeURIComponent(id)}/record`;
  record.download = `tournament-${id}.toml`;
}

function renderEntry() {
  const open = data.status === "open";
  $("tn-entry").hidden = !open;
  if (!open) return;
  $("tn-count").textContent = t("tn.entered", { n: data.entrants, m: data.size });
  $("tn-entrants").replaceChildren(...data.standings.map((s) => make("li", "chip", s.name)));
  const entry = mine();
  $("tn-enter-form").hidden = Boolean(entry.token) || data.entrants >= data.size;
  $("tn-me").textContent = entry.name ? t("tn.entered.as", { name: entry.name }) : "";
  $("tn-host").hidden = !entry.creator;
  $("tn-startnote").textContent = data.bots ? t("tn.startnote", { b: data.bots }) : "";
}

function renderStandings() {
  const shown = data.status !== "open";
  $("tn-standings-panel").hidden = !shown;
  if (!shown) return;
  const money = data.format === "blackpool";
  const head = [make("th", "num", t("tn.place")), make("th", "", t("tn.player")),
    make("th", "num", money ? t("tn.money") : t("tn.points"))];
  $("tn-standings-head").replaceChildren(...head);
  const rows = data.standings.map((s) => {
    const tr = make("tr", `${s.out ? "out" : ""} ${s.name === data.me ? "me" : ""}`);
    tr.dataset.name = s.name;
    const who = `${s.name}${s.bot ? ` (${s.bot})` : ""}${s.name === data.me ? ` · ${t("tn.you")}` : ""}` +
      `${s.out ? ` · ${t("tn.out")}` : ""}`;
    tr.append(make("td", "num", String(s.place)), make("td", "", who),
      make("td", "num", String(money ? s.money : s.points)));
    return tr;
  });
  $("tn-standings").replaceChildren(...rows);
}

function renderQueue() {
  const shown = data.format === "blackpool" && data.status !== "open";
  $("tn-queue-panel").hidden = !shown;
  if (!shown) return;
  $("tn-queue").textContent = data.queue.length ? data.queue.join(", ") : t("tn.queue.empty");
  $("tn-deciding").textContent = data.deciding.length
    ? t("tn.deciding", { names: data.deciding.map((d) => d.name).join(", ") }) : "";
  $("tn-closed").hidden = !data.closed;
  $("tn-pot").textContent = t("tn.pot", { p: data.pot });
  const me = data.deciding.find((d) => d.name === data.me);
  $("tn-decide").hidden = !me;
  if (me) {
    $("tn-decide-text").textContent = t("tn.decide", { s: Math.max(0, Math.round(me.deadline - serverNow())) });
  }
}

function tableCard(table) {
  const card = make("div", `tn-table ${table.status}`);
  card.dataset.number = table.number;
  card.dataset.status = table.status;
  const head = make("div", "table-head");
  head.append(make("strong", "", t("tn.table", { n: table.number })),
    make("span", "muted", t(table.status === "over" ? "tn.over" : "tn.playing")));
  card.appendChild(head);
  const players = make("div", "");
  const order = table.places
    ? [...table.players].sort((a, b) => table.places[a] - table.places[b]) : table.players;
  for (const p of order) {
    const place = table.places ? `${table.places[p]}. ` : "";
    const total = table.totals ? ` (${table.totals[p]})` : "";
    const cls = `chip ${table.left.includes(p) ? "left" : ""} ${table.places && table.places[p] === 1 ? "place-1" : ""}`;
    players.appendChild(make("span", cls, `${place}${p}${total}`));
  }
  card.appendChild(players);
  const links = make("div", "row");
  if (table.table_id && table.status !== "over" && table.invite) {
    const watch = make("a", "button small tn-watch", t("tn.watch"));
    watch.href = `/table/${encodeURIComponent(table.table_id)}?invite=${encodeURIComponent(table.invite)}`;
    links.appendChild(watch);
  }
  if (table.table_id && table.my_seat !== undefined && table.status !== "over") {
    const seat = make("a", "button small primary tn-seat", t("tn.seat"));
    seat.href = `/table/${encodeURIComponent(table.table_id)}`;
    seat.addEventListener("click", () => {
      const entry = mine();
      saveSeat(table.table_id, { token: entry.token, seat: table.my_seat, name: entry.name, host: false });
    });
    links.appendChild(seat);
  }
  if (table.table_id && table.status === "over") {
    const replay = make("a", "button small", t("t.replay"));
    replay.href = `/replay/${encodeURIComponent(table.table_id)}`;
    links.appendChild(replay);
  }
  card.appendChild(links);
  return card;
}

function renderTables() {
  const shown = data.tables.length > 0 || data.byes.length > 0;
  $("tn-tables-panel").hidden = !shown;
  if (!shown) return;
  const groups = new Map();
  for (const table of data.tables) {
    const key = stageName(table);
    if (!groups.has(key)) groups.set(key, { tables: [], byes: [] });
    groups.get(key).tables.push(table);
  }
  for (const bye of data.byes) {
    const key = stageName(bye);
    if (!groups.has(key)) groups.set(key, { tables: [], byes: [] });
    groups.get(key).byes.push(bye);
  }
  const out = [];
  for (const [name, group] of groups) {
    out.push(make("div", "stage", name));
    const grid = make("div", "tn-tables");
    grid.append(...group.tables.map(tableCard));
    out.push(grid);
    for (const bye of group.byes) out.push(make("p", "muted", t("tn.bye", { p: bye.player, s: name })));
  }
  $("tn-rounds").replaceChildren(...out);
}

/** An event of the tournament in the page's language. */
function eventText(e) {
  const stage = e.stage ? t(`tn.stage.${e.stage}`, { r: e.round }) : "";
  const places = e.places ? Object.entries(e.places).sort((a, b) => a[1] - b[1])
    .map(([p, n]) => `${n}. ${p}`).join(", ") : "";
  return t(`tn.ev.${e.event}`, { p: e.player || e.winner || "", n: e.table ?? "", stage,
    players: (e.players || []).join(" "), places });
}

function renderEvents() {
  $("tn-events-panel").hidden = data.log.length <= 1;
  $("tn-events").replaceChildren(...[...data.log].reverse().map((e) => make("li", "", eventText(e))));
}

function render() {
  if (!data) return;
  document.body.dataset.status = data.status;
  document.body.dataset.version = data.version;
  renderHead();
  renderEntry();
  renderStandings();
  renderQueue();
  renderTables();
  renderEvents();
}

async function fetchNews(after) {
  const query = after === null ? "" : `?after=${after}`;
  return api(`/api/tournaments/${encodeURIComponent(id)}${query}`, { token: mine().token || null });
}

async function follow() {
  let pause = 500;
  while (true) {
    try {
      data = await fetchNews(data ? data.version : null);
      $("tn-error").textContent = "";
      render();
      pause = 500;
      if (data.status === "over") return;
    } catch (err) {
      $("tn-error").textContent = errorText(err.code, err.message);
      if (err.code === "no-tournament") return;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(10000, pause * 2);
    }
  }
}

async function enter(e) {
  e.preventDefault();
  const name = $("tn-enter-name").value.trim();
  try {
    const got = await api(`/api/tournaments/${encodeURIComponent(id)}/enter`, { method: "POST", body: { name } });
    saveName(got.name);
    saveEntry(id, { token: got.token, name: got.name });
    data = await fetchNews(null);
    render();
  } catch (err) {
    $("tn-error").textContent = errorText(err.code, err.message);
  }
}

async function post(path, body, token) {
  try {
    await api(`/api/tournaments/${encodeURIComponent(id)}/${path}`, { method: "POST", body, token });
    $("tn-error").textContent = "";
  } catch (err) {
    $("tn-error").textContent = errorText(err.code, err.message);
  }
}

async function init() {
  langButton($("lang"));
  applyLabels(document);
  $("tn-enter-name").value = savedName();
  $("tn-enter-form").addEventListener("submit", enter);
  $("tn-start").addEventListener("click", () => post("start", undefined, mine().creator));
  $("tn-buy").addEventListener("click", () => post("decide", { buy_in: true }, mine().token));
  $("tn-retire").addEventListener("click", () => post("decide", { buy_in: false }, mine().token));
  onLangChange(render);
  setInterval(() => { if (data && data.deciding.length) renderQueue(); }, 1000);
  await syncClock();
  await follow();
}

init();
